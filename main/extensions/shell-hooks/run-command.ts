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
  /**
   * The command said `{"async":true}` on its first line (Claude Code's protocol): it goes on in
   * the background, and this is how it ends (its later output, the first line left out).
   */
  detached?: Promise<HookRun>;
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

/** `{"async":true, "asyncTimeout": ms}` as a command's first line, or null. */
function asyncLine(line: string): { timeoutMs?: number } | null {
  try {
    const json: unknown = JSON.parse(line);
    if (typeof json !== "object" || json === null || (json as { async?: unknown }).async !== true)
      return null;
    const ms = (json as { asyncTimeout?: unknown }).asyncTimeout;
    return typeof ms === "number" && ms > 0 ? { timeoutMs: ms } : {};
  } catch {
    return null;
  }
}

export function runHookCommand(opts: RunOptions): Promise<HookRun> {
  let early: ((run: HookRun) => void) | undefined;
  const answered = new Promise<HookRun>((resolve) => (early = resolve));
  const final = runToEnd(opts, (timeoutMs, rest) =>
    early?.({ ...EMPTY_RUN, detached: rest(timeoutMs) }),
  );
  void final.then((run) => early?.(run));
  return answered;
}

const EMPTY_RUN: HookRun = { code: null, stdout: "", stderr: "", timedOut: false };

/**
 * The whole run. `goneAsync` is called once if the first stdout line asks for the background;
 * its `rest` (given the async time limit, if any) resolves when the command ends.
 */
function runToEnd(
  opts: RunOptions,
  goneAsync: (
    timeoutMs: number | undefined,
    rest: (ms: number | undefined) => Promise<HookRun>,
  ) => void,
): Promise<HookRun> {
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
    let firstLineRead = false;
    let asyncFrom = -1; // where the output after the async line starts
    let stopping: Promise<void> | undefined;
    const stop = () => (stopping ??= group.stop());
    const onTimeout = () => {
      timedOut = true;
      void stop();
    };
    let timer = setTimeout(onTimeout, opts.timeoutMs);
    const onAbort = () => void stop();
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout?.setEncoding("utf8").on("data", (d: string) => {
      if (stdout.length < MAX_OUTPUT) stdout += d;
      const newline = stdout.indexOf("\n");
      if (firstLineRead || newline === -1) return;
      firstLineRead = true;
      const wanted = asyncLine(stdout.slice(0, newline).trim());
      if (!wanted) return;
      asyncFrom = newline + 1;
      goneAsync(wanted.timeoutMs, (ms) => {
        if (ms !== undefined) {
          clearTimeout(timer);
          timer = setTimeout(onTimeout, ms);
        }
        return done;
      });
    });
    child.stderr?.setEncoding("utf8").on("data", (d: string) => {
      if (stderr.length < MAX_OUTPUT) stderr += d;
    });
    // A hook that exits without reading stdin closes the pipe: not an error.
    child.stdin?.on("error", () => {});
    child.stdin?.end(opts.stdin);
    let settle: (run: HookRun) => void = () => {};
    const done = new Promise<HookRun>((r) => (settle = r));
    const finish = (run: HookRun) => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      const result = asyncFrom >= 0 ? { ...run, stdout: run.stdout.slice(asyncFrom) } : run;
      settle(result);
      resolve(result);
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

/**
 * `${CLAUDE_PLUGIN_ROOT}` and `${CLAUDE_PROJECT_DIR}` in the command line, as Claude Code
 * substitutes them (so they work whatever the shell; the variables are also in the environment).
 */
export function expandVars(command: string, env: Record<string, string | undefined>): string {
  return command.replace(
    /\$\{(CLAUDE_PLUGIN_ROOT|CLAUDE_PROJECT_DIR|CLAUDE_PLUGIN_DATA)\}/g,
    (all, name: string) => env[name] ?? all,
  );
}
