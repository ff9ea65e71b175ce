/**
 * A runner plugin's tool (one per plugin, named after it): the call's arguments go to the command
 * as JSON on stdin, its `args` as argument-vector entries after the command; stdout, stderr and
 * the exit code come back, each kept head and tail like built-in tools' output
 * (main/tools/limits.ts); an answer in seed 001's protocol (`{"success", "content"}` on stdout)
 * is taken as the result. Timeouts, aborts and deactivation stop the whole process tree.
 */
import { Ajv, type ValidateFunction } from "ajv";
import { DEFAULT_MAX_OUTPUT_CHARS } from "../../tools/limits.ts";
import { runProgram } from "../../tools/builtin/process-tree.ts";
import { ToolError, type Tool, type Validation } from "../../tools/types.ts";
import type { JsonSchema } from "../../providers/types.ts";
import { argvOf, newRunName, type BoundRunner } from "./bind.ts";
import { runnerProblem, type RunnerManifest } from "./manifest.ts";
import type { Problem } from "../../host/problem.ts";
import { commandText, runCheck } from "./probe.ts";

/** How long a runner's `command_stop` (docker rm -f) may take after a stopped call. */
const STOP_TIMEOUT_MS = 30_000;

const ajv = new Ajv({ allErrors: false, strict: false, validateSchema: true, logger: false });

export function defaultParameters(manifest: RunnerManifest): JsonSchema {
  return {
    type: "object",
    properties: {
      args: {
        type: "array",
        items: { type: "string" },
        description: `Arguments passed to \`${commandText(manifest.command)}\` after its own`,
      },
      input: {
        description: "Any JSON value; the whole call's arguments reach it as JSON on stdin",
      },
    },
    additionalProperties: false,
  } as JsonSchema;
}

/** The tool's input schema, compiled (a schema ajv refuses is a load error naming the field). */
export function compileParameters(
  manifest: RunnerManifest,
  manifestFile: string,
): { schema: JsonSchema; check: ValidateFunction } | { error: Problem } {
  const schema = (manifest.parameters as JsonSchema | undefined) ?? defaultParameters(manifest);
  try {
    return { schema, check: ajv.compile(schema) };
  } catch (err) {
    const line = (err as Error).message.split("\n")[0];
    return { error: runnerProblem(manifestFile, "parameters: not a usable JSON schema", line) };
  }
}

export interface RunnerToolOptions {
  manifest: RunnerManifest;
  runner: BoundRunner;
  parameters: { schema: JsonSchema; check: ValidateFunction };
  /** Appended to the description: what auto-discovery found at activation. */
  discovered: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** Aborted when the plugin is deactivated. */
  stopped: AbortSignal;
  /** Holds the call until it is over, so deactivation can wait for its process tree to be gone. */
  track<T>(work: Promise<T>): Promise<T>;
  /** The files it runs that changed since it was allowed (none: it may run). */
  changedSinceAllowed?(): Promise<string[]>;
}

export function runnerTool(opts: RunnerToolOptions): Tool {
  const { manifest, runner } = opts;
  const where =
    runner.config.engine !== undefined
      ? `in a ${runner.config.engine} container (${manifest.image})`
      : "on this computer";
  const description =
    `${manifest.description}\n\nRuns \`${commandText(manifest.command)}\` ${where}. The call's ` +
    "arguments reach it as JSON on stdin; `args` are added to its command line. Returns stdout, " +
    "stderr and the exit code." +
    opts.discovered;
  return {
    name: manifest.name,
    description,
    parameters: opts.parameters.schema,
    source: "extension",
    parallel: false,
    validate(args: unknown): Validation {
      if (args === null || typeof args !== "object" || Array.isArray(args))
        return { ok: false, error: "arguments must be an object" };
      const value = args as Record<string, unknown>;
      if (!opts.parameters.check(value)) {
        const e = opts.parameters.check.errors?.[0];
        const field = e?.instancePath
          ? `"${e.instancePath.slice(1).replaceAll("/", ".")}"`
          : "arguments";
        return { ok: false, error: `${field} ${e?.message ?? "are invalid"}` };
      }
      const extra = value.args;
      if (
        extra !== undefined &&
        !(Array.isArray(extra) && extra.every((a) => typeof a === "string"))
      )
        return { ok: false, error: `"args" must be a list of text` };
      return { ok: true, value };
    },
    timeoutMs: () =>
      manifest.timeoutSeconds !== undefined ? manifest.timeoutSeconds * 1000 : undefined,
    async execute(args, ctx) {
      if (opts.stopped.aborted) throw new ToolError(`${manifest.name} is not active`);
      // Consent covered the files it runs: a script swapped while it is active does not run.
      const changed = (await opts.changedSinceAllowed?.()) ?? [];
      if (changed.length > 0)
        throw new ToolError(
          `${manifest.name}: ${changed.join(", ")} changed since it was allowed, so it did not run: deactivate it and activate it again to allow the new version`,
        );
      const extra = Array.isArray(args.args) ? (args.args as string[]) : [];
      const values = {
        command: manifest.command,
        args: extra,
        run_name: newRunName(manifest.name),
      };
      const argv = argvOf(runner, "run", values) ?? [];
      const { cwd, env } = opts;
      const work = async () => {
        const result = await runProgram(argv[0], argv.slice(1), {
          cwd,
          env,
          signal: AbortSignal.any([ctx.signal, opts.stopped]),
          stdin: JSON.stringify(args),
          keepChars: DEFAULT_MAX_OUTPUT_CHARS,
          onOutput: ctx.onOutput,
        });
        // Stopping the engine's client can leave its container running: stop that too.
        const stop = result.aborted !== undefined ? argvOf(runner, "stop", values) : undefined;
        if (stop) await runCheck(stop, { cwd, env, timeoutMs: STOP_TIMEOUT_MS });
        return result;
      };
      const result = await opts.track(work()).catch((err: unknown) => {
        throw new ToolError(`${manifest.name}: cannot start ${argv[0]}: ${(err as Error).message}`);
      });
      const parts: string[] = [];
      if (result.stdout.trim() !== "") parts.push(result.stdout.replace(/\s+$/, ""));
      if (result.stderr.trim() !== "") parts.push(`[stderr]\n${result.stderr.replace(/\s+$/, "")}`);
      const body = parts.length > 0 ? parts.join("\n") : "(no output)";
      if (result.aborted !== undefined) {
        const reason = result.aborted;
        const why =
          reason instanceof Error && reason.name === "TimeoutError"
            ? `timed out after ${Math.round(ctx.timeoutMs / 1000)} s and was killed`
            : opts.stopped.aborted
              ? "stopped: the plugin was deactivated"
              : "aborted and killed";
        throw new ToolError(`${body}\n[${why}]`);
      }
      const answer = result.exitCode === 0 ? protocolAnswer(result.stdout) : undefined;
      if (answer?.success === true) return answer.text;
      if (answer?.success === false) throw new ToolError(answer.text);
      if (result.exitCode === 0) return `${body}\n[exit code 0]`;
      const status =
        result.exitCode !== null ? `exit code ${result.exitCode}` : `killed by ${result.signal}`;
      throw new ToolError(`${body}\n[${status}]`);
    },
  };
}

/**
 * Seed 001's CLI tool protocol: a program that answers `{"success": true, "content": "…"}` (or
 * `{"success": false, "error": "…"}`) on stdout has its answer taken as the result.
 */
function protocolAnswer(stdout: string): { success: boolean; text: string } | undefined {
  const text = stdout.trim();
  if (!text.startsWith("{") || !text.endsWith("}")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const { success, content, error } = value as Record<string, unknown>;
  if (typeof success !== "boolean") return undefined;
  const said = success ? content : (error ?? content);
  if (typeof said !== "string") return undefined;
  return { success, text: said };
}
