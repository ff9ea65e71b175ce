/** Defines a built-in tool from a zod schema: one source for the model's JSON Schema and validation. */
import { z } from "zod";
import type { ToolPaths } from "../../plugins/sdk/index.ts";
import type { JsonSchema } from "../providers/types.ts";
import { ToolError } from "./types.ts";
import type { ApprovalRule, Tool, ToolContext, ToolSource, Validation } from "./types.ts";

type ObjectShape = Record<string, z.ZodType>;

export interface ToolDefinition<Shape extends ObjectShape> {
  name: string;
  description: string;
  usage?: string;
  examples?: string;
  /** Fields of the argument object; it is made strict, so unknown fields are rejected. */
  args: Shape;
  parallel: boolean;
  source?: ToolSource;
  override?: boolean;
  optIn?: boolean;
  /** Its rule before anyone chose one (the approval policy reads it); missing: "ask". */
  approval?: ApprovalRule;
  execute(args: z.output<z.ZodObject<Shape>>, ctx: ToolContext): Promise<string>;
  paths?(args: z.output<z.ZodObject<Shape>>, ctx: ToolContext): ToolPaths;
  timeoutMs?(args: z.output<z.ZodObject<Shape>>): number | undefined;
}

export function defineTool<Shape extends ObjectShape>(def: ToolDefinition<Shape>): Tool {
  const schema = z.strictObject(def.args);
  type Args = z.output<typeof schema>;
  // execute/paths may be called without validate() first (plugins, CLI); parsing again is cheap
  // and keeps the typed implementations honest.
  const parse = (args: unknown): Args => {
    const result = schema.safeParse(args);
    if (!result.success) throw new ToolError(formatIssues(result.error.issues, args));
    return result.data;
  };
  const tool: Tool = {
    name: def.name,
    description: def.description,
    usage: def.usage,
    examples: def.examples,
    parameters: toParameters(schema),
    source: def.source ?? "builtin",
    parallel: def.parallel,
    override: def.override,
    optIn: def.optIn,
    approval: def.approval,
    validate(args: unknown): Validation {
      const result = schema.safeParse(args);
      if (result.success) return { ok: true, value: result.data };
      return { ok: false, error: formatIssues(result.error.issues, args) };
    },
    execute: async (args, ctx) => def.execute(parse(args), ctx),
  };
  const { paths, timeoutMs } = def;
  if (paths) tool.paths = (args, ctx) => paths(parse(args), ctx);
  if (timeoutMs) tool.timeoutMs = (args) => timeoutMs(parse(args));
  return tool;
}

/** The JSON Schema a model sees: the draft marker and safe-integer bounds are pure noise to it. */
export function toParameters(schema: z.ZodObject): JsonSchema {
  const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" });
  return stripNoise(json) as JsonSchema;
}

function stripNoise(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNoise);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === "$schema") continue;
    if (
      (key === "maximum" || key === "minimum") &&
      Math.abs(Number(child)) === Number.MAX_SAFE_INTEGER
    ) {
      continue;
    }
    out[key] = stripNoise(child);
  }
  return out;
}

/** One line naming each bad field and what is wrong with it, e.g. `"path": expected string, got number`. */
export function formatIssues(issues: readonly z.core.$ZodIssue[], input: unknown): string {
  return issues.map((issue) => formatIssue(issue, input)).join("; ");
}

function formatIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const field = issue.path.length > 0 ? `"${issue.path.map(String).join(".")}"` : "arguments";
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case "unrecognized_keys": {
      const where = issue.path.length > 0 ? ` in ${field}` : "";
      const noun = issue.keys.length === 1 ? "unknown field" : "unknown fields";
      return `${noun}${where}: ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
    }
    case "invalid_type":
      if (value === undefined) return `${field} is required`;
      return `${field}: expected ${issue.expected}, got ${describeType(value)}`;
    case "invalid_value":
      return `${field}: expected one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}`;
    default:
      return `${field}: ${issue.message}`;
  }
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current = input;
  for (const key of path) {
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && !Number.isInteger(value)) return `number ${value}`;
  return typeof value;
}
