/**
 * Short-lived checks a runner makes before it is used: is a program installed (found on PATH,
 * or at its path), and what does a check command answer. Every check runs through the same
 * process-tree runner as tools (no shell; the tree is stopped on its time limit).
 */
import { constants } from "node:fs";
import { access } from "node:fs/promises";
import path from "node:path";
import { runProgram, type ShellResult } from "../../tools/builtin/process-tree.ts";

/** Where `program` is (absolute), or undefined when it is not installed. */
export async function findProgram(
  program: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<string | undefined> {
  const executable = async (file: string) =>
    access(file, constants.X_OK).then(
      () => true,
      () => false,
    );
  if (program.includes("/") || program.includes(path.sep)) {
    const full = path.resolve(cwd, program);
    return (await executable(full)) ? full : undefined;
  }
  for (const dir of (env.PATH ?? "").split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, program);
    if (await executable(full)) return full;
  }
  return undefined;
}

export interface CheckRun {
  ok: boolean;
  /** First non-empty line of its stderr (or stdout), for the one-line error. */
  said: string;
  result?: ShellResult;
}

/** Runs a check command (argv) with its own time limit; ok = exit code 0. */
export async function runCheck(
  argv: readonly string[],
  opts: { env: NodeJS.ProcessEnv; cwd: string; timeoutMs: number; signal?: AbortSignal },
): Promise<CheckRun> {
  const signals = [AbortSignal.timeout(opts.timeoutMs), ...(opts.signal ? [opts.signal] : [])];
  try {
    const result = await runProgram(argv[0], argv.slice(1), {
      cwd: opts.cwd,
      env: opts.env,
      signal: AbortSignal.any(signals),
      keepChars: 4_000,
    });
    const said = firstLine(result.stderr) || firstLine(result.stdout);
    if (result.aborted !== undefined)
      return { ok: false, said: `stopped after ${Math.round(opts.timeoutMs / 1000)} s`, result };
    return { ok: result.exitCode === 0, said, result };
  } catch (err) {
    return { ok: false, said: (err as Error).message };
  }
}

/** An argument vector as the user would type it into a POSIX shell (to copy and run). */
export function commandText(argv: readonly string[]): string {
  return argv
    .map((a) => (/^[A-Za-z0-9_\-.,:/@=%+]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`))
    .join(" ");
}

function firstLine(text: string): string {
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? ""
  ).slice(0, 200);
}
