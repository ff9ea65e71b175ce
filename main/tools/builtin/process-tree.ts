/**
 * Runs a shell command (or a program with its argument vector, no shell: runner plugins) as the
 * root of its own process tree, so that a timeout or a stop button can kill everything it started
 * (`npm test` → node → workers), not just the shell.
 */
import { spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { HeadTailBuffer } from "../limits.ts";
import { ownProcessGroup, ProcessGroup } from "../process-group.ts";

export interface ShellResult {
  /** stdout and stderr as they interleaved (each kept head and tail, like the streams below). */
  output: string;
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the run was cut short by the abort signal; its reason. */
  aborted: unknown;
}

export interface ShellOptions {
  cwd: string;
  signal: AbortSignal;
  /** Characters of output kept from each end (the rest is counted, not stored). */
  keepChars: number;
  /**
   * SIGTERM first so programs can clean up; SIGKILL this long after for those that do not. The
   * result comes once the whole tree is gone.
   */
  killGraceMs?: number;
  /** Each piece of output as it arrives (stdout and stderr interleaved). */
  onOutput?(text: string): void;
  /** Written to the program's stdin, which is then closed (default: no stdin at all). */
  stdin?: string;
  /** The program's environment (default: this process's). */
  env?: NodeJS.ProcessEnv;
}

const isWindows = process.platform === "win32";

/** bash where there is one (models write bash), else POSIX sh; cmd.exe on Windows. */
export function shellCommand(command: string): { file: string; args: string[] } {
  if (isWindows)
    return { file: process.env.ComSpec ?? "cmd.exe", args: ["/d", "/s", "/c", command] };
  const bash = findOnPath("bash");
  return bash ? { file: bash, args: ["-c", command] } : { file: "/bin/sh", args: ["-c", command] };
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, name))) return path.join(dir, name);
  }
  return ["/bin/bash", "/usr/bin/bash"].find((p) => existsSync(p));
}

export function runShell(command: string, options: ShellOptions): Promise<ShellResult> {
  const { file, args } = shellCommand(command);
  return runProgram(file, args, { ...options, verbatim: isWindows });
}

/** Runs `file` with `args` as its argument vector, never through a shell. */
export function runProgram(
  file: string,
  args: readonly string[],
  options: ShellOptions & { verbatim?: boolean },
): Promise<ShellResult> {
  const output = new HeadTailBuffer(options.keepChars);
  const streams = [new HeadTailBuffer(options.keepChars), new HeadTailBuffer(options.keepChars)];
  return new Promise<ShellResult>((resolve, reject) => {
    let child: ChildProcess;
    // Its own process group on POSIX, so stopping it reaches every descendant.
    const tree = ownProcessGroup(options.env);
    try {
      child = spawn(file, args, {
        cwd: options.cwd,
        ...tree,
        stdio: [options.stdin === undefined ? "ignore" : "pipe", "pipe", "pipe"],
        windowsHide: true,
        windowsVerbatimArguments: options.verbatim === true,
      });
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    const group = new ProcessGroup(child, tree);
    let stopping: Promise<void> | undefined;
    let aborted: unknown = undefined;
    let settled = false;
    let exitTimer: NodeJS.Timeout | undefined;
    // One decoder for both pipes would mix their bytes; one each keeps split characters whole.
    const decoders = [new TextDecoder(), new TextDecoder()];
    const onData =
      (which: 0 | 1) =>
      (chunk: Buffer): void => {
        const text = decoders[which].decode(chunk, { stream: true });
        output.push(text);
        streams[which].push(text);
        options.onOutput?.(text);
      };
    child.stdout?.on("data", onData(0));
    child.stderr?.on("data", onData(1));
    if (options.stdin !== undefined) {
      // A program that exits without reading its input closes the pipe: not an error.
      child.stdin?.on("error", () => {});
      child.stdin?.end(options.stdin);
    }

    const onAbort = (): void => {
      aborted = options.signal.reason ?? new Error("aborted");
      stopping = group.stop(options.killGraceMs);
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener("abort", onAbort, { once: true });

    const finish = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(exitTimer);
      options.signal.removeEventListener("abort", onAbort);
      // Stopped: answer only once nothing of the tree is left. Finished by itself: background
      // jobs it started (`server &`) are the user's to keep.
      if (!stopping) group.release();
      void (stopping ?? Promise.resolve()).then(() =>
        resolve({
          output: output.toString(),
          stdout: streams[0].toString(),
          stderr: streams[1].toString(),
          exitCode,
          signal,
          aborted,
        }),
      );
    };
    child.on("error", (err) => {
      if (settled) return;
      settled = true;
      options.signal.removeEventListener("abort", onAbort);
      group.release();
      reject(err);
    });
    // 'close' waits for the pipes; a background job (`server &`) can hold them open forever,
    // so after the shell itself exits give the output a moment to drain, then stop waiting.
    child.on("exit", (code, signal) => {
      exitTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish(code, signal);
      }, 200);
    });
    child.on("close", (code, signal) => finish(code, signal));
  });
}
