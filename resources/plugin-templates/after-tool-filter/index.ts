/**
 * {{name}}: runs after every tool call. Returning `output` replaces what the model gets back
 * from the tool (the user still sees the tool's own output in its card).
 */
import type { AfterToolContext, Result } from "@islet/sdk";

export function afterToolExecution(ctx: AfterToolContext): Result | undefined {
  const max = Number(ctx.pluginConfig.max_chars) || 4000;
  const output = ctx.tool.result;
  if (output.length <= max) return undefined;
  const half = Math.floor(max / 2);
  const cut = output.length - 2 * half;
  console.log(`${ctx.tool.name}: cut ${cut} characters`);
  return {
    output: `${output.slice(0, half)}\n[{{name}}: ${cut} characters cut]\n${output.slice(-half)}`,
  };
}
