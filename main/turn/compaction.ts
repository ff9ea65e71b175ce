/**
 * Compaction: older messages are replaced by a model-written summary; the most recent ones stay
 * verbatim. Runs when the context estimate passes the threshold, on /compact, and to recover
 * from a context-overflow error. BeforeCompaction can skip it; AfterCompaction observes it.
 */
import { runBeforeCompaction, runReadOnly } from "./hooks/pipeline.ts";
import { makeMessage, type Message } from "../core/message.ts";
import { streamOnce } from "./model-call.ts";
import type { AgentState, EngineDeps } from "./state.ts";
import { buildContext, contextWindow } from "./context.ts";
import type { Context } from "../../plugins/sdk/index.ts";
import { reportOutcome } from "./report.ts";

export type CompactionMode = "auto" | "manual" | "recovery";

export interface CompactionResult {
  success: boolean;
  skipped: boolean;
  preMessages: number;
  postMessages: number;
  summaryLength: number;
}

const SUMMARY_SYSTEM = [
  "You compress conversations between a user and a coding assistant.",
  "Write a faithful summary that lets the assistant continue the work without the original messages:",
  "the user's goals and constraints, decisions made, files read or changed (with paths), commands run",
  "and their outcomes, open problems and the next steps. Be concise; use bullet points.",
].join(" ");

export const SUMMARY_PREFIX = "[Summary of the earlier conversation]\n";

/** First index of the kept tail: never starts on a tool result, which would orphan it. */
export function splitPoint(messages: readonly Message[], keepLast: number): number {
  let i = Math.max(0, messages.length - keepLast);
  while (i > 0 && messages[i].role === "tool") i--;
  return i;
}

function render(m: Message, limit: number): string {
  const clip = (s: string) =>
    s.length > limit ? `${s.slice(0, limit)} …[${s.length - limit} chars cut]` : s;
  if (m.role === "tool")
    return `[${m.toolName ?? "tool"} result${m.isError ? " (error)" : ""}]\n${clip(m.content)}`;
  let text = `[${m.kind === "summary" ? "earlier summary" : m.role}]\n${clip(m.content)}`;
  for (const c of m.toolCalls ?? [])
    text += `\n(calls ${c.name} ${clip(JSON.stringify(c.arguments))})`;
  return text;
}

/** The old part as plain text, trimmed from the front to fit `maxChars`. */
export function transcript(messages: readonly Message[], maxChars: number): string {
  const parts = messages.map((m) => render(m, 4000));
  let total = parts.reduce((n, p) => n + p.length + 2, 0);
  let start = 0;
  while (total > maxChars && start < parts.length - 1) total -= parts[start++].length + 2;
  const body = parts.slice(start).join("\n\n");
  return start > 0 ? `(${start} earliest messages omitted)\n\n${body}` : body;
}

export async function compactHistory(
  state: AgentState,
  deps: EngineDeps,
  mode: CompactionMode,
  signal?: AbortSignal,
): Promise<CompactionResult> {
  const forced = mode !== "auto";
  const pre = state.messages.length;
  const keepLast = deps.compaction.keepLast;
  const base: Context = buildContext(state, deps);
  const before = await runBeforeCompaction(deps.hooks.handlers("beforeCompaction"), {
    ...base,
    forced,
    tokensUsed: base.tokens.estimate,
    contextPercent: base.tokens.percent,
    messageCount: pre,
    keepLast,
  });
  reportOutcome(deps, before, { state });
  const result: CompactionResult = {
    success: false,
    skipped: false,
    preMessages: pre,
    postMessages: 0,
    summaryLength: 0,
  };
  if (before.skip) {
    result.skipped = true;
    return result;
  }

  let summaryText: string | undefined;
  const cut = splitPoint(state.messages, keepLast);
  if (cut > 0 && state.resolved) {
    const old = state.messages.slice(0, cut);
    const kept = state.messages.slice(cut);
    const window = contextWindow(state) || 8192;
    let summary = "";
    try {
      const res = await streamOnce(
        state.resolved.provider,
        {
          model: state.resolved.model,
          system: SUMMARY_SYSTEM,
          messages: [makeMessage("user", transcript(old, Math.floor(window * 4 * 0.6)))],
          tools: [],
          signal,
        },
        () => {},
      );
      summary = res.aborted ? "" : res.content.trim();
    } catch (err) {
      deps.emit({
        type: "notice",
        source: "compaction",
        text: `compaction summary failed: ${(err as Error).message}`,
      });
    }
    if (summary !== "") {
      state.messages = [
        makeMessage("user", SUMMARY_PREFIX + summary, { kind: "summary" }),
        ...kept,
      ];
      result.success = true;
      result.summaryLength = summary.length;
      summaryText = summary;
    } else if (mode === "recovery") {
      // Without a summary the conversation still has to fit: drop the old part outright.
      state.messages = [
        makeMessage(
          "user",
          `${SUMMARY_PREFIX}(${old.length} earlier messages were removed to fit the context window.)`,
          {
            kind: "summary",
          },
        ),
        ...kept,
      ];
    }
    if (state.messages.length !== pre) {
      state.stats.compactions++;
      deps.session?.resetMessages(state.messages);
    }
  }
  result.postMessages = result.success ? state.messages.length : 0;

  const after = await runReadOnly(deps.hooks.handlers("afterCompaction"), {
    ...buildContext(state, deps),
    success: result.success,
    preMessages: pre,
    postMessages: result.postMessages,
    summaryLength: result.summaryLength,
    forced,
    ...(summaryText !== undefined ? { summary: summaryText } : {}),
  });
  reportOutcome(deps, after, { state });
  deps.emit({
    type: "compaction",
    forced,
    success: result.success,
    preMessages: pre,
    postMessages: state.messages.length,
  });
  return result;
}
