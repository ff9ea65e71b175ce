/**
 * exec for plugins (unsafe mode only), host side: an argv array spawned without a shell, in a
 * working directory inside the plugin's allowed roots, with a timeout and an output cap. The
 * program runs in its own process group so that a timeout or the plugin's unload stops the whole
 * tree (SIGTERM, then SIGKILL; tools/process-group.ts), not just the direct child.
 */
import { spawn } from "node:child_process";
import os from "node:os";
import { z } from "zod";
import { ownProcessGroup, ProcessGroup } from "../../tools/process-group.ts";

export interface ExecLimits {
  /** Default and largest allowed `timeoutMs`. */
  defaultTimeoutMs: number;
  maxTimeoutMs: number;
  /** Per stream (stdout, stderr); the rest is dropped and marked. */
  maxOutputBytes: number;
}

export const DEFAULT_EXEC_LIMITS: ExecLimits = {
  defaultTimeoutMs: 60_000,
  maxTimeoutMs: 10 * 60_000,
  maxOutputBytes: 1024 * 1024,
};

export const execArgsSchema = z.tuple([
  z.array(z.string()).min(1, 'exec needs a program: an argv array like ["git", "status"]'),
  z
    .object({
      cwd: z.string().optional(),
      timeoutMs: z.number().positive().optional(),
      stdin: z.string().optional(),
    })
    .default({}),
]);

export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}

// What most programs need to start (PATH to be found at all); the rest of the host environment
// stays hidden, as it is from the plugin itself, and the plugin's whitelisted env is added.
const BASE_ENV = [
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "LANG",
  "LC_ALL",
  "TERM",
  "SHELL",
  "TMPDIR",
  "TZ",
  "SystemRoot",
  "ComSpec",
  "PATHEXT",
  "windir",
  "USERPROFILE",
  "APPDATA",
  "LOCALAPPDATA",
  "TEMP",
  "TMP",
];

export function childEnv(pluginEnv: Readonly<Record<string, string>>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of BASE_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return { ...env, ...pluginEnv };
}

export function runProgram(
  argv: string[],
  opts: {
    cwd: string;
    env: Record<string, string>;
    timeoutMs: number;
    stdin?: string;
    maxOutputBytes: number;
    signal?: AbortSignal;
    /** Output as it arrives (stdout and stderr as they interleave), for a tool card. */
    onOutput?(text: string): void;
  },
): Promise<ExecResult> {
  const shown = JSON.stringify(argv);
  return new Promise((resolve, reject) => {
    // A process group of its own (POSIX), so stopping it reaches the grandchildren.
    const tree = ownProcessGroup(opts.env);
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: opts.cwd,
      shell: false,
      windowsHide: true,
      ...tree,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const stdout = new CappedText(opts.maxOutputBytes);
    const stderr = new CappedText(opts.maxOutputBytes);
    // One decoder per pipe keeps a character split across chunks whole.
    const live = (text: CappedText) => {
      const decoder = new TextDecoder();
      return (chunk: Buffer) => {
        text.add(chunk);
        if (opts.onOutput) opts.onOutput(decoder.decode(chunk, { stream: true }));
      };
    };
    child.stdout.on("data", live(stdout));
    child.stderr.on("data", live(stderr));
    const group = new ProcessGroup(child, tree);
    let stopped: string | undefined;
    let stopping: Promise<void> = Promise.resolve();
    const stop = (why: string) => {
      if (stopped !== undefined) return;
      stopped = why;
      stopping = group.stop();
    };
    const timer = setTimeout(
      () => stop(`timed out after ${opts.timeoutMs} ms and was killed`),
      opts.timeoutMs,
    );
    const onAbort = () => stop("was killed because the plugin was unloaded");
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();
    const finish = () => {
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
    };

    child.on("error", (error: NodeJS.ErrnoException) => {
      finish();
      group.release();
      reject(
        new Error(
          error.code === "ENOENT"
            ? `exec ${shown}: program not found: ${argv[0]}`
            : `exec ${shown}: ${error.message}`,
        ),
      );
    });
    child.on("close", async (code, signal) => {
      finish();
      if (stopped !== undefined) {
        // The plugin hears back once nothing of the tree is left.
        await stopping;
        reject(new Error(`exec ${shown} ${stopped}`));
        return;
      }
      group.release();
      const signalCode = signal ? 128 + (os.constants.signals[signal] ?? 0) : 1;
      resolve({ code: code ?? signalCode, stdout: stdout.text(), stderr: stderr.text() });
    });
    // A program that exits without reading its stdin makes the write fail: that is not an error.
    child.stdin.on("error", () => {});
    child.stdin.end(opts.stdin ?? "");
  });
}

class CappedText {
  readonly #max: number;
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  #dropped = 0;

  constructor(max: number) {
    this.#max = max;
  }

  add(chunk: Buffer): void {
    const room = this.#max - this.#bytes;
    if (room > 0) this.#chunks.push(chunk.subarray(0, room));
    this.#bytes += Math.min(room > 0 ? room : 0, chunk.length);
    this.#dropped += Math.max(0, chunk.length - Math.max(room, 0));
  }

  text(): string {
    const text = Buffer.concat(this.#chunks).toString("utf8");
    return this.#dropped > 0 ? `${text}\n… [${this.#dropped} more bytes of output dropped]` : text;
  }
}
