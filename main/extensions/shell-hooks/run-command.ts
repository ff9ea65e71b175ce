/**
 * Runs one hook command as Claude Code does: through the shell, in the project folder, the event
 * JSON on stdin, CLAUDE_* variables in its environment. On its time limit, or when the source is
 * unloaded, its whole process tree is stopped (main/tools/process-group.ts).
 */
import { spawn } from "node:child_process";
import { ownProcessGroup, ProcessGroup } from "../../tools/process-group.ts";

export interface HookRun {
  /** Exit code; null when it was stopped (timeout, unload) or could not start. */
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** Set when the command could not be started at all. */
  spawnError?: string;
}

export interface RunOptions {
  command: string;
  stdin: string;
  cwd: string;
  env: Record<string, string | undefined>;
  timeoutMs: number;
  /** Aborting stops the process tree (the source was unloaded). */
  signal?: AbortSignal;
}

/** Output beyond this is dropped: a hook is a check, not a data pipe. */
const MAX_OUTPUT = 1_000_000;

export function runHookCommand(opts: RunOptions): Promise<HookRun> {
  return new Promise((resolve) => {
    const isWindows = process.platform === "win32";
    // The user's shell on POSIX (what their hook scripts are written for), cmd on Windows.
    const tree = ownProcessGroup(opts.env);
    const child = isWindows
      ? spawn(opts.command, { cwd: opts.cwd, env: opts.env, shell: true, windowsHide: true })
      : spawn(process.env.SHELL || "/bin/sh", ["-c", opts.command], {
          cwd: opts.cwd,
          ...tree,
        });
    const group = new ProcessGroup(child, tree);
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    let stopping: Promise<void> | undefined;
    const stop = () => (stopping ??= group.stop());
    const timer = setTimeout(() => {
      timedOut = true;
      void stop();
    }, opts.timeoutMs);
    const onAbort = () => void stop();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += d;
    });
    child.stderr?.setEncoding("utf8").on("data", (d: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += d;
    });
    // A hook that exits without reading stdin closes the pipe: not an error.
    child.stdin?.on("error", () => {});
    child.stdin?.end(opts.stdin);
    const finish = (run: HookRun) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      resolve(run);
    };
    child.once("error", (err) => {
      group.release();
      finish({ code: null, stdout, stderr, timedOut: false, spawnError: err.message });
    });
    child.once("close", (code) => {
      if (!stopping) {
        group.release();
        finish({ code, stdout, stderr, timedOut: false });
        return;
      }
      // Stopped: answer once nothing of the tree is left.
      void stopping.then(() => finish({ code: null, stdout, stderr, timedOut }));
    });
  });
}
