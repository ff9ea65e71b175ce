/**
 * Runs tool calls so that nothing a tool does can break the agent loop: bad arguments, stale
 * files, exceptions, hangs and floods of output all come back as an ordinary result.
 */
import { checkGuard, clearSeen, recordSeen, resolvePaths } from "./guard.ts";
import type { ResolvedPaths } from "./guard.ts";
import { clampTimeout, DEFAULT_MAX_OUTPUT_CHARS, truncateOutput } from "./limits.ts";
import type { Tool, ToolContext } from "./types.ts";
import { ToolError } from "./types.ts";
import type { Denial } from "../core/denial.ts";

export interface ToolResult {
  output: string;
  error: boolean;
  durationMs: number;
  /** Not run for want of approval (the output tells the model why). */
  denied?: Denial;
}

export interface ExecuteOptions {
  maxOutputChars?: number;
  /** Enforce read-before-write through the guard lists (default true). */
  readBeforeWrite?: boolean;
  /**
   * After a timeout or abort, how long a tool gets to stop by itself (Bash uses it to kill its
   * process tree and report partial output) before the call is abandoned.
   */
  abortGraceMs?: number;
}

const DEFAULT_ABORT_GRACE_MS = 5_000;

/** Thrown into the call's signal when its wall-clock limit passes. */
export class ToolTimeoutError extends Error {
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`timed out after ${timeoutMs} ms`);
    this.name = "TimeoutError";
    this.timeoutMs = timeoutMs;
  }
}

export async function executeToolCall(
  tool: Tool,
  args: unknown,
  ctx: ToolContext,
  options: ExecuteOptions = {},
): Promise<ToolResult> {
  const started = performance.now();
  const finish = (output: string, error: boolean): ToolResult => ({
    output: truncateOutput(output, options.maxOutputChars ?? DEFAULT_MAX_OUTPUT_CHARS),
    error,
    durationMs: Math.round(performance.now() - started),
  });

  let value: Record<string, unknown>;
  try {
    const validation = tool.validate(args);
    if (!validation.ok)
      return finish(`Invalid arguments for ${tool.name}: ${validation.error}`, true);
    value = validation.value;
  } catch (err) {
    return finish(`Invalid arguments for ${tool.name}: ${errorText(err)}`, true);
  }
  if (ctx.signal.aborted) return finish(`${tool.name} was not run: aborted`, true);

  const timeoutMs = clampTimeout(
    safely(() => tool.timeoutMs?.(value)),
    ctx.timeoutMs,
  );
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(new ToolTimeoutError(timeoutMs)), timeoutMs);
  const callCtx: ToolContext = {
    ...ctx,
    signal: AbortSignal.any([ctx.signal, timeout.signal]),
    timeoutMs,
  };
  try {
    let paths: ResolvedPaths;
    try {
      paths = resolvePaths(await tool.paths?.(value, callCtx), ctx.workdir);
    } catch (err) {
      return finish(errorText(err), true);
    }
    if (options.readBeforeWrite !== false) {
      const problem = await checkGuard(ctx.state, paths.guard, ctx.workdir);
      if (problem) return finish(problem, true);
    }
    let output: unknown;
    try {
      const grace = options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
      output = await untilAbandoned(tool.execute(value, callCtx), callCtx.signal, grace);
    } catch (err) {
      return finish(failureText(tool.name, err), true);
    }
    await recordSeen(ctx.state, paths.record);
    clearSeen(ctx.state, paths.clear);
    return finish(typeof output === "string" ? output : stringify(output), false);
  } finally {
    clearTimeout(timer);
  }
}

/** The tool's own result, unless it ignores an abort for longer than `graceMs`. */
function untilAbandoned<T>(work: Promise<T>, signal: AbortSignal, graceMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let graceTimer: NodeJS.Timeout | undefined;
    const onAbort = (): void => {
      graceTimer = setTimeout(() => reject(signal.reason), graceMs);
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => {
      clearTimeout(graceTimer);
      signal.removeEventListener("abort", onAbort);
    });
  });
}

function failureText(toolName: string, err: unknown): string {
  if (err instanceof ToolTimeoutError) return `${toolName} ${err.message}`;
  if (err instanceof Error && err.name === "AbortError") return `${toolName} was aborted`;
  return errorText(err);
}

function errorText(err: unknown): string {
  if (err instanceof ToolError) return err.message;
  if (err instanceof Error) return err.message || err.name;
  return typeof err === "string" ? err : stringify(err);
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function safely<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}

/** The result for a call naming a tool that does not exist (or is not enabled for this agent). */
export function unknownToolResult(name: string, available: readonly string[]): ToolResult {
  const list = available.length > 0 ? ` Available tools: ${available.join(", ")}.` : "";
  return { output: `Unknown tool "${name}".${list}`, error: true, durationMs: 0 };
}

/**
 * Runs one step's calls: consecutive parallel-safe calls run together, any other call runs alone
 * once everything before it finished (a Write after two Reads waits for both). Results keep the
 * calls' order. `run` should not throw (executeToolCall never does).
 */
export async function runToolCalls<Call, Result>(
  calls: readonly Call[],
  run: (call: Call, index: number) => Promise<Result>,
  isParallel: (call: Call) => boolean,
): Promise<Result[]> {
  const results: Result[] = new Array<Result>(calls.length);
  let index = 0;
  while (index < calls.length) {
    const call = calls[index];
    if (!isParallel(call)) {
      results[index] = await run(call, index);
      index++;
      continue;
    }
    const batch: Promise<void>[] = [];
    while (index < calls.length && isParallel(calls[index])) {
      const at = index;
      batch.push(run(calls[at], at).then((result) => void (results[at] = result)));
      index++;
    }
    await Promise.all(batch);
  }
  return results;
}
