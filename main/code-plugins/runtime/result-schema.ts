/**
 * What plugins may return, checked before the engine trusts it. A malformed result is a fault
 * of the plugin (shown as a notice), never something the engine half-applies.
 */
import { z } from "zod";

const str = z.string();
const bool = z.boolean();

export const resultSchema = z.looseObject({
  message: str.optional(),
  role: z.enum(["user", "assistant"]).optional(),
  prefix: str.optional(),
  eject: bool.optional(),
  disableTools: z.array(str).optional(),
  notice: str.optional(),
  output: str.optional(),
  response: z.looseObject({ skip: bool.optional(), content: str.optional() }).optional(),
  error: z.looseObject({ retry: bool.optional(), skip: bool.optional() }).optional(),
  request: z.looseObject({ appendSystem: str.optional(), skip: bool.optional() }).optional(),
  compaction: z.looseObject({ skip: bool.optional() }).optional(),
});

export const beforeToolResultSchema = resultSchema.extend({
  arguments: z.record(str, z.unknown()).optional(),
  block: bool.optional(),
});

export const sdkMessageSchema = z.looseObject({
  id: str,
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: str,
  thinking: str.optional().default(""),
  toolName: str.optional().default(""),
  toolCallId: str.optional().default(""),
  toolCalls: z
    .array(z.looseObject({ id: str, name: str, arguments: z.record(str, z.unknown()).default({}) }))
    .optional()
    .default([]),
  tokens: z.number().optional().default(0),
  type: z.enum(["normal", "synthetic"]).optional().default("normal"),
  createdAt: str.optional().default(""),
});

export const transformResultSchema = z.array(sdkMessageSchema);

const propertySchema: z.ZodType<Record<string, unknown>> = z.looseObject({
  type: str,
  description: str.optional(),
  enum: z.array(z.unknown()).optional(),
});

export const toolSchemaSchema = z.looseObject({
  name: str.regex(/^[A-Za-z][\w-]{0,63}$/, "letters, digits, _ or -, starting with a letter"),
  description: str.min(1),
  usage: str.optional(),
  examples: str.optional(),
  parameters: z
    .looseObject({
      type: z.literal("object").optional(),
      properties: z.record(str, propertySchema).optional(),
      required: z.array(str).optional(),
    })
    .optional()
    .default({ type: "object" }),
});

export const toolPathsSchema = z.looseObject({
  read: z.array(str).optional(),
  write: z.array(str).optional(),
  record: z.array(str).optional(),
  guard: z.array(str).optional(),
  clear: z.array(str).optional(),
});

export const commandSchemaSchema = z.looseObject({
  name: str.regex(/^[A-Za-z0-9][\w:.-]*$/, "a command name without the leading /"),
  description: str.default(""),
  /**
   * Ghost text for the composer. The SDK reference (seed 002) writes a string ("[environment]"),
   * the Aura guide (seed 000) a list of labels (["name"]): both read as one string.
   */
  hints: z
    .union([str, z.array(str)])
    .optional()
    .transform(commandHints),
  forward: bool.optional(),
  silent: bool.optional(),
});

/** ["from", "[to]"] → "[from] [to]": a bare label gets the brackets of optional ghost text. */
function commandHints(hints: string | string[] | undefined): string | undefined {
  if (!Array.isArray(hints)) return hints;
  const labels = hints.map((h) => h.trim()).filter((h) => h !== "");
  if (labels.length === 0) return undefined;
  return labels.map((h) => (/^[[<]/.test(h) ? h : `[${h}]`)).join(" ");
}

export const commandResultSchema = z.looseObject({ output: str.default("") });

/** First problem of a failed parse, as "field: what is wrong". */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const where = issue.path.length > 0 ? issue.path.join(".") : "result";
  return `${where}: ${issue.message}`;
}
