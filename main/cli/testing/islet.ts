/** Test support: the real `islet` binary in a child process, and throwaway homes. */
import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../../bin/islet.js", import.meta.url));
export const PRELOAD = fileURLToPath(new URL("./record-connections.mjs", import.meta.url));

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function islet(
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      // As the shebang runs it: `--` keeps Node from reading the command's own --env-file.
      ["--no-node-snapshot", ...nodeArgs, "--", BIN, ...args],
      { env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === "number" ? code : 1, stdout, stderr });
      },
    );
  });
}

export async function tempDirs() {
  const root = await mkdtemp(path.join(tmpdir(), "islet-cli-"));
  return {
    root,
    home: path.join(root, "home"),
    workdir: root,
    clean: () => rm(root, { recursive: true, force: true }),
  };
}

/** The real `islet` binary as a long-running child process: wait for its output, signal it. */
export function startIslet(args: string[]) {
  const child = spawn(process.execPath, ["--no-node-snapshot", "--", BIN, ...args], {
    env: { ...process.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 128 : null))),
  );
  return {
    child,
    output: () => ({ stdout, stderr }),
    /** Resolves once stdout matches (rejects if the process ends first or `ms` pass). */
    async waitFor(pattern: RegExp, ms = 20_000): Promise<void> {
      const started = Date.now();
      while (!pattern.test(stdout)) {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`islet ended before ${pattern}: ${stderr}`);
        if (Date.now() - started > ms) throw new Error(`no ${pattern} after ${ms} ms: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    /** The exit code, or "still running" after `ms`. */
    exit(ms: number): Promise<number | null | "still running"> {
      return Promise.race([
        exited,
        new Promise<"still running">((resolve) => setTimeout(() => resolve("still running"), ms)),
      ]);
    },
  };
}
