/** Client-side token estimates: cheap, provider-independent, good enough for a context meter. */
import type { Message } from "../core/message.ts";
import type { ToolSpec } from "../providers/types.ts";
import type { TokenState } from "../core/types.ts";

/** ~4 characters per token for English and code; per-message framing costs a few tokens. */
export const CHARS_PER_TOKEN = 4;
const MESSAGE_OVERHEAD = 4;

export function estimateText(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateMessage(m: Message): number {
  let chars = m.content.length + (m.thinking?.length ?? 0);
  if (m.toolCalls) {
    for (const c of m.toolCalls) chars += c.name.length + JSON.stringify(c.arguments).length;
  }
  return Math.ceil(chars / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD;
}

export function estimateTools(tools: readonly ToolSpec[]): number {
  let chars = 0;
  for (const t of tools) chars += t.name.length + t.description.length + schemaChars(t.parameters);
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/**
 * A tool's schema in characters, by schema: a tool keeps one schema object, and every model call
 * estimates every offered tool (hundreds, with a marketplace installed).
 */
const schemaSizes = new WeakMap<object, number>();

function schemaChars(schema: ToolSpec["parameters"]): number {
  let n = schemaSizes.get(schema);
  if (n === undefined) {
    n = JSON.stringify(schema).length;
    schemaSizes.set(schema, n);
  }
  return n;
}

export function tokenState(
  system: string,
  messages: readonly Message[],
  tools: readonly ToolSpec[],
  max: number,
  lastApi: number,
): TokenState {
  let estimate = estimateText(system) + estimateTools(tools);
  for (const m of messages) estimate += estimateMessage(m);
  const percent = max > 0 ? Math.min(100, (estimate / max) * 100) : 0;
  return { estimate, lastApi, percent: Math.round(percent * 10) / 10, max };
}
