/** The default runner for `bash:CMD` conditions: exit 0 = true, 120 s limit, run in workdir. */
import { spawn } from "node:child_process";

export const BASH_CONDITION_TIMEOUT_MS = 120_000;

export function runBashCondition(
  command: string,
  workdir: string,
  timeoutMs = BASH_CONDITION_TIMEOUT_MS,
): Promise<boolean> {
  return new Promise((resolve) => {
    const windows = process.platform === "win32";
    // Own process group, so a timeout kills the command's children too (bash -c "sleep 999").
    const child = windows
      ? spawn(command, { cwd: workdir, shell: true, stdio: "ignore", windowsHide: true })
      : spawn("bash", ["-c", command], { cwd: workdir, stdio: "ignore", detached: true });
    const timer = setTimeout(() => {
      try {
        if (!windows && child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
        else child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
    }, timeoutMs);
    child.once("error", () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
