/** How tools turn the model's paths into absolute ones and back into short ones for output. */
import os from "node:os";
import path from "node:path";

/** Relative paths are relative to the workdir; `~` is the user's home, as in a shell. */
export function resolveToolPath(workdir: string, p: string): string {
  if (p === "~") return os.homedir();
  if (p.startsWith("~/") || p.startsWith("~\\")) return path.join(os.homedir(), p.slice(2));
  return path.resolve(workdir, p);
}

/** Paths inside the workdir are shown relative to it (shorter for the model), others absolute. */
export function displayPath(workdir: string, absolute: string): string {
  const relative = path.relative(workdir, absolute);
  if (relative === "") return ".";
  if (relative.startsWith("..") || path.isAbsolute(relative)) return absolute;
  return relative.split(path.sep).join("/");
}
