/**
 * {{name}}: a tool. `schema()` tells the model what it does and which arguments it takes (they
 * are validated before `execute` runs); `execute()` returns the text the model gets back.
 */
import type { Context, ToolSchema } from "@islet/sdk";

export function schema(): ToolSchema {
  return {
    name: "{{toolName}}",
    description: "Counts the words of a text and names the longest one.",
    parameters: {
      type: "object",
      properties: {
        text: { type: "string", description: "The text to count" },
      },
      required: ["text"],
    },
  };
}

export function execute(ctx: Context, args: Record<string, unknown>): string {
  const min = Number(ctx.pluginConfig.min_length) || 1;
  const words = String(args.text)
    .split(/\s+/)
    .filter((w) => w.length >= min);
  const longest = words.reduce((a, b) => (b.length > a.length ? b : a), "");
  console.log(`counted ${words.length} words`);
  return `${words.length} words; the longest is "${longest}"`;
}

/** Safe to run alongside other calls of the same step. */
export function parallel(): boolean {
  return true;
}
