/**
 * `islet serve --open`: the printed URL in the person's browser. $BROWSER first (the convention
 * many tools follow: a command, `%s` standing for the URL, else the URL appended), then the
 * system's opener; on Linux only when there is a display to open it on.
 */
import { spawn } from "node:child_process";

/** The command that would open `url`, or why none will. */
export function browserCommand(
  url: string,
  env: Record<string, string | undefined> = process.env,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } | { none: string } {
  const chosen = env["BROWSER"]?.split(":")[0]?.trim();
  if (chosen) {
    // Words, not a shell line: the URL carries the access token and must stay one argument.
    const words = chosen.split(/\s+/);
    const args = words.slice(1).map((w) => w.replaceAll("%s", url));
    if (!words.slice(1).some((w) => w.includes("%s"))) args.push(url);
    return { command: words[0]!, args };
  }
  if (platform === "darwin") return { command: "open", args: [url] };
  if (platform === "win32") return { command: "explorer.exe", args: [url] };
  if (!env["DISPLAY"] && !env["WAYLAND_DISPLAY"])
    return { none: "there is no display here: DISPLAY and WAYLAND_DISPLAY are unset" };
  return { command: "xdg-open", args: [url] };
}

/** Opens it; resolves to null once the opener started, or to why it could not. */
export function openBrowser(url: string, env = process.env): Promise<string | null> {
  const chosen = browserCommand(url, env);
  if ("none" in chosen) return Promise.resolve(chosen.none);
  return new Promise((resolve) => {
    const child = spawn(chosen.command, chosen.args, { detached: true, stdio: "ignore", env });
    child.once("error", (err) => resolve(`${chosen.command}: ${err.message}`));
    child.once("spawn", () => {
      child.unref();
      resolve(null);
    });
  });
}
