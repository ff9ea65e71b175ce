/** A plugin's tool as an engine Tool: schema → JSON Schema (checked with ajv), execute and paths in the sandbox. */
import { Ajv, type ErrorObject } from "ajv";
import type { JsonSchema } from "../../providers/types.ts";
import type { Problem } from "../../host/problem.ts";
import { ToolError, type Tool, type ToolContext, type Validation } from "../../tools/types.ts";
import type { Context, ToolParameters, ToolPaths } from "../../../plugins/sdk/index.ts";
import { PluginCallError, type LoadedPlugin, type PluginToolExports } from "./loaded-plugin.ts";
import { describeIssue, toolPathsSchema } from "./result-schema.ts";

const ajv = new Ajv({ allErrors: false, strict: false, coerceTypes: false });

/** The model sees exactly the declared properties; unknown fields are refused like built-ins refuse them. */
export function toJsonSchema(params: Partial<ToolParameters> | undefined): JsonSchema {
  return {
    type: "object",
    properties: params?.properties ?? {},
    ...(params?.required && params.required.length > 0 ? { required: params.required } : {}),
    additionalProperties: false,
  };
}

function formatAjvError(e: ErrorObject): string {
  if (e.keyword === "additionalProperties")
    return `unknown field: "${String(e.params.additionalProperty)}"`;
  if (e.keyword === "required") return `"${String(e.params.missingProperty)}" is required`;
  const where = e.instancePath ? `"${e.instancePath.slice(1).replaceAll("/", ".")}"` : "arguments";
  return `${where} ${e.message ?? "is invalid"}`;
}

/**
 * A tool's failure as the model should read it: what the plugin threw, without the host path and
 * line (those go to the plugin's log, where its author looks).
 */
function forModel(err: PluginCallError): string {
  if (err.fault?.kind === "exception") return err.fault.message.replace(/ \(at .*\)$/, "");
  return err.message;
}

/** What plugin tools get when no turn is running (e.g. `islet tools NAME …`). */
export type ContextFallback = () => Context;

export function pluginTool(
  getPlugin: () => LoadedPlugin,
  exp: PluginToolExports,
  manifest: { name: string; override: boolean; optIn: boolean; config: Record<string, unknown> },
  fallbackContext: ContextFallback,
): Tool {
  const parameters = toJsonSchema(exp.schema.parameters);
  const check = ajv.compile(parameters);
  const call = async (name: string, args: unknown[]): Promise<unknown> => {
    try {
      return await getPlugin().call(name, args);
    } catch (err) {
      throw new ToolError(err instanceof PluginCallError ? forModel(err) : String(err));
    }
  };
  const tool: Tool = {
    name: exp.schema.name,
    description: exp.schema.description,
    usage: exp.schema.usage,
    examples: exp.schema.examples,
    parameters,
    source: "plugin",
    parallel: exp.parallel,
    override: manifest.override,
    // A replaced built-in's rule ("allow" for Read, a remembered "always" for Bash) would let the
    // plugin's own code run unasked: the override asks for itself, under its own name.
    ...(manifest.override
      ? { approvalName: `${exp.schema.name} (override by plugin ${manifest.name})` }
      : {}),
    optIn: manifest.optIn,
    validate(args: unknown): Validation {
      if (args === null || typeof args !== "object" || Array.isArray(args))
        return { ok: false, error: "arguments must be an object" };
      if (check(args)) return { ok: true, value: args as Record<string, unknown> };
      return { ok: false, error: (check.errors ?? []).map(formatAjvError).join("; ") };
    },
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
      const sdk = { ...(ctx.sdk ?? fallbackContext()), pluginConfig: manifest.config };
      // While it runs, a program it starts through exec streams to this call's card.
      const leave = getPlugin().execOutput.enter(ctx.onOutput);
      try {
        const out = await call("execute", [sdk, args]);
        return typeof out === "string" ? out : JSON.stringify(out);
      } finally {
        leave();
      }
    },
  };
  if (exp.hasPaths) {
    tool.paths = async (args: Record<string, unknown>): Promise<ToolPaths> => {
      const parsed = toolPathsSchema.safeParse(await call("paths", [args]));
      if (!parsed.success)
        throw new ToolError(`${getPlugin().name}: paths() returned ${describeIssue(parsed.error)}`);
      return parsed.data;
    };
  }
  return tool;
}

/** The line for a tool override held back because its project folder is not trusted. */
export function overrideHeldBack(
  spec: { name: string; manifestFile: string },
  tool: string,
): Problem {
  return {
    source: spec.name,
    file: spec.manifestFile,
    title: `tool override ${tool} of project plugin ${spec.name} held back: this folder is not trusted`,
    cause: `the ${tool} already there serves; \`islet trust add\` trusts the folder`,
  };
}
