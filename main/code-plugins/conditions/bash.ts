/** The default runner for `bash:CMD` conditions: exit 0 = true, 120 s limit, run in workdir. */
import { spawn } from "node:child_process";
import { ownProcessGroup, ProcessGroup } from "../../tools/process-group.ts";

export const BASH_CONDITION_TIMEOUT_MS = 120_000;

export function runBashCondition(
  command: string,
  workdir: string,
  timeoutMs = BASH_CONDITION_TIMEOUT_MS,
): Promise<boolean> {
  return new Promise((resolve) => {
    // Own process group, so a timeout stops the command's children too (bash -c "sleep 999").
    const tree = ownProcessGroup();
    const child =
      process.platform === "win32"
        ? spawn(command, { cwd: workdir, shell: true, stdio: "ignore", windowsHide: true })
        : spawn("bash", ["-c", command], { cwd: workdir, stdio: "ignore", ...tree });
    const group = new ProcessGroup(child, tree);
    let stopping: Promise<void> | undefined;
    const timer = setTimeout(() => (stopping = group.stop()), timeoutMs);
    child.once("error", () => {
      clearTimeout(timer);
      group.release();
      resolve(false);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      if (!stopping) {
        group.release();
        resolve(code === 0);
        return;
      }
      // Timed out: false, once nothing of the command is left.
      void stopping.then(() => resolve(false));
    });
  });
}
