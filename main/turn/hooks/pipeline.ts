/**
 * Runs the handlers of one timing in order (a run of handlers sharing a `concurrent` key at once)
 * and folds their Results with the seed's semantics:
 * notices win over messages, disableTools accumulate, appendSystem composes, skip/retry use OR,
 * argument and output rewrites chain (each handler sees the previous one's rewrite).
 */
import type { BeforeToolResult, Result } from "../../../plugins/sdk/index.ts";
import type {
  EngineExtras,
  HookContexts,
  HookHandler,
  HookInvocation,
  HookResults,
  HookTiming,
  HookTraceEntry,
  Injection,
  Notice,
} from "./types.ts";

/** Records what one handler's result changed: its label in `changed`, and what it became. */
export class Changes {
  private readonly entry: HookTraceEntry;
  constructor(entry: HookTraceEntry) {
    this.entry = entry;
  }
  push(change: string, summary = ""): void {
    this.entry.changed.push(change);
    (this.entry.effects ??= []).push({ change, summary: shorten(summary) });
  }
}

const SUMMARY_CHARS = 200;

/** One line for the timeline; the full text is in the transcript (or only the model saw it). */
function shorten(text: string): string {
  const line = text.length > SUMMARY_CHARS * 2 ? text.slice(0, SUMMARY_CHARS * 2) : text;
  const flat = line.replace(/\s+/g, " ").trim();
  return flat.length > SUMMARY_CHARS ? flat.slice(0, SUMMARY_CHARS - 1) + "…" : flat;
}

export interface CommonOutcome {
  injections: Injection[];
  notices: Notice[];
  disableTools: string[];
  trace: HookTraceEntry[];
}

function emptyOutcome(): CommonOutcome {
  return { injections: [], notices: [], disableTools: [], trace: [] };
}

/**
 * Calls each handler with the context `makeCtx` gives it; `apply` folds an ok result. Handlers
 * must treat the context as read-only: the same object goes to every handler until a rewrite
 * (arguments, output) makes a new one.
 */
export async function runHandlers<T extends HookTiming>(
  handlers: readonly HookHandler<T>[],
  makeCtx: () => HookContexts[T],
  out: CommonOutcome,
  apply: (source: string, result: HookResults[T], changed: Changes) => void,
): Promise<void> {
  for (let i = 0; i < handlers.length;) {
    const handler = handlers[i]!;
    const key = handler.concurrent;
    let end = i + 1;
    while (key !== undefined && end < handlers.length && handlers[end]!.concurrent === key) end++;
    const ctx = makeCtx();
    if (end === i + 1) {
      fold(handler, await invokeTimed(handler, ctx), out, apply);
    } else {
      const group = handlers.slice(i, end);
      // Started together; folded one by one, in order, so the outcome does not depend on timing.
      const runs = await Promise.all(group.map((member) => invokeTimed(member, ctx)));
      group.forEach((member, n) => fold(member, runs[n]!, out, apply));
    }
    i = end;
  }
}

async function invokeTimed<T extends HookTiming>(
  handler: HookHandler<T>,
  ctx: HookContexts[T],
): Promise<{ invocation: HookInvocation<T>; durationMs: number }> {
  const started = performance.now();
  let invocation: HookInvocation<T>;
  try {
    invocation = await handler.invoke(ctx);
  } catch (err) {
    // Handlers promise not to throw; a broken one must still not take the turn down.
    invocation = { status: "error", message: err instanceof Error ? err.message : String(err) };
  }
  return { invocation, durationMs: Math.round((performance.now() - started) * 1000) / 1000 };
}

function fold<T extends HookTiming>(
  handler: HookHandler<T>,
  { invocation, durationMs }: { invocation: HookInvocation<T>; durationMs: number },
  out: CommonOutcome,
  apply: (source: string, result: HookResults[T], changed: Changes) => void,
): void {
  const entry: HookTraceEntry = {
    source: handler.source,
    timing: handler.timing,
    status: invocation.status,
    durationMs,
    changed: [],
  };
  if (invocation.condition) entry.condition = invocation.condition;
  if (invocation.status === "skipped") entry.detail = invocation.reason;
  else if (invocation.status === "error") {
    entry.detail = invocation.message;
    // A shell hook's source already names its event (`guard:PreToolUse`); the engine's timing
    // name (beforeToolExecution) would only be a second, unfamiliar name for it.
    const what = handler.claudeHook
      ? `${handler.source} hook`
      : `${handler.source}: ${handler.timing}`;
    out.notices.push({
      source: handler.source,
      text: `${what} failed: ${invocation.message}`,
    });
  } else if (invocation.result !== undefined && invocation.result !== null) {
    const result = handler.claudeHook ? invocation.result : withoutExtras(invocation.result);
    apply(handler.source, result, new Changes(entry));
  }
  out.trace.push(entry);
}

const EXTRAS: readonly (keyof EngineExtras)[] = ["beforePrompt", "stopTurn", "shown"];

/** A plugin's result without the fields only Claude Code's hooks may set. */
function withoutExtras<R>(result: R): R {
  if (typeof result !== "object" || result === null || Array.isArray(result)) return result;
  if (!EXTRAS.some((key) => key in result)) return result;
  const copy = { ...result } as Record<string, unknown>;
  for (const key of EXTRAS) delete copy[key];
  return copy as R;
}

/**
 * Message / notice / disableTools: the part of Result every timing honours. `messageIsReason`:
 * the message explains a block (the tool phase folds it into the refusal), so it is not noted
 * as an injected message.
 */
export function applyCommon(
  source: string,
  r: Result & EngineExtras,
  out: CommonOutcome,
  changed: Changes,
  messageIsReason = false,
): void {
  if (r.notice) {
    out.notices.push({ source, text: r.notice });
    changed.push("notice", r.notice);
  } else if (r.message) {
    out.injections.push({
      source,
      role: r.role === "user" ? "user" : "assistant",
      content: (r.prefix ?? "") + r.message,
      eject: r.eject === true,
      ...(r.beforePrompt ? { beforePrompt: true } : {}),
    });
    if (!messageIsReason) changed.push("message", (r.prefix ?? "") + r.message);
  }
  if (r.shown) {
    out.notices.push({ source, text: r.shown });
    changed.push("notice", r.shown);
  }
  if (r.disableTools && r.disableTools.length > 0) {
    out.disableTools.push(...r.disableTools);
    changed.push("disableTools", r.disableTools.join(", "));
  }
}

export interface BeforeChatOutcome extends CommonOutcome {
  appendSystem: string[];
  skip: boolean;
}

export async function runBeforeChat(
  handlers: readonly HookHandler<"beforeChat">[],
  ctx: HookContexts["beforeChat"],
): Promise<BeforeChatOutcome> {
  const out: BeforeChatOutcome = { ...emptyOutcome(), appendSystem: [], skip: false };
  await runHandlers(
    handlers,
    () => ctx,
    out,
    (source, r, changed) => {
      applyCommon(source, r, out, changed);
      if (r.request?.appendSystem) {
        out.appendSystem.push(r.request.appendSystem);
        changed.push("appendSystem", r.request.appendSystem);
      }
      if (r.request?.skip) {
        out.skip = true;
        changed.push("skip");
      }
    },
  );
  return out;
}

export interface AfterResponseOutcome extends CommonOutcome {
  skip: boolean;
  /** Replacement content for history; the last handler that sets it wins. */
  content: string | undefined;
}

export async function runAfterResponse(
  handlers: readonly HookHandler<"afterResponse">[],
  ctx: HookContexts["afterResponse"],
): Promise<AfterResponseOutcome> {
  const out: AfterResponseOutcome = { ...emptyOutcome(), skip: false, content: undefined };
  await runHandlers(
    handlers,
    () => ctx,
    out,
    (source, r, changed) => {
      applyCommon(source, r, out, changed);
      if (r.response?.skip) {
        out.skip = true;
        changed.push("response.skip");
      }
      if (typeof r.response?.content === "string") {
        out.content = r.response.content;
        changed.push("response.content", r.response.content);
      }
    },
  );
  return out;
}

export interface BeforeToolOutcome extends CommonOutcome {
  /** Arguments after every rewrite, in order. */
  arguments: Record<string, unknown>;
  /** Which handlers rewrote the arguments (for error messages and the trace). */
  rewrittenBy: string[];
  block: boolean;
  blockedBy: string[];
  /** The user turn ends after this step (a hook's `continue: false`), with this text. */
  stopTurn: string | undefined;
}

export async function runBeforeTool(
  handlers: readonly HookHandler<"beforeToolExecution">[],
  ctx: HookContexts["beforeToolExecution"],
): Promise<BeforeToolOutcome> {
  const out: BeforeToolOutcome = {
    ...emptyOutcome(),
    arguments: ctx.arguments,
    rewrittenBy: [],
    block: false,
    blockedBy: [],
    stopTurn: undefined,
  };
  // One context object per distinct argument set: plugin hosts serialise each object once.
  let current = ctx;
  await runHandlers(
    handlers,
    () =>
      current.arguments === out.arguments
        ? current
        : (current = { ...ctx, arguments: out.arguments }),
    out,
    (source, r: BeforeToolResult & EngineExtras, changed) => {
      applyCommon(source, r, out, changed, r.block === true);
      if (r.stopTurn !== undefined) {
        out.stopTurn ??= r.stopTurn;
        changed.push("stopTurn", r.stopTurn);
      }
      if (r.arguments && typeof r.arguments === "object") {
        out.arguments = r.arguments;
        out.rewrittenBy.push(source);
        changed.push("arguments", JSON.stringify(r.arguments));
      }
      if (r.block) {
        out.block = true;
        out.blockedBy.push(source);
        changed.push("block", r.message ? `${ctx.toolName}: ${r.message}` : ctx.toolName);
      }
    },
  );
  return out;
}

export interface AfterToolOutcome extends CommonOutcome {
  /** Output after every rewrite; undefined when no handler rewrote it. */
  output: string | undefined;
  /** The user turn ends after this step (a hook's `continue: false`), with this text. */
  stopTurn: string | undefined;
}

export async function runAfterTool(
  handlers: readonly HookHandler<"afterToolExecution">[],
  ctx: HookContexts["afterToolExecution"],
): Promise<AfterToolOutcome> {
  const out: AfterToolOutcome = { ...emptyOutcome(), output: undefined, stopTurn: undefined };
  let current = ctx;
  await runHandlers(
    handlers,
    () =>
      out.output === undefined || current.tool.result === out.output
        ? current
        : (current = { ...ctx, tool: { ...ctx.tool, result: out.output } }),
    out,
    (source, r, changed) => {
      applyCommon(source, r, out, changed);
      if (typeof r.output === "string") {
        out.output = r.output;
        changed.push("output", r.output);
      }
      if (r.stopTurn !== undefined) {
        out.stopTurn ??= r.stopTurn;
        changed.push("stopTurn", r.stopTurn);
      }
    },
  );
  return out;
}

export interface OnErrorOutcome extends CommonOutcome {
  retry: boolean;
  skip: boolean;
}

export async function runOnError(
  handlers: readonly HookHandler<"onError">[],
  ctx: HookContexts["onError"],
): Promise<OnErrorOutcome> {
  const out: OnErrorOutcome = { ...emptyOutcome(), retry: false, skip: false };
  await runHandlers(
    handlers,
    () => ctx,
    out,
    (source, r, changed) => {
      applyCommon(source, r, out, changed);
      if (r.error?.retry) {
        out.retry = true;
        changed.push("error.retry");
      }
      if (r.error?.skip) {
        out.skip = true;
        changed.push("error.skip");
      }
    },
  );
  return out;
}

export interface BeforeCompactionOutcome extends CommonOutcome {
  skip: boolean;
}

export async function runBeforeCompaction(
  handlers: readonly HookHandler<"beforeCompaction">[],
  ctx: HookContexts["beforeCompaction"],
): Promise<BeforeCompactionOutcome> {
  const out: BeforeCompactionOutcome = { ...emptyOutcome(), skip: false };
  await runHandlers(
    handlers,
    () => ctx,
    out,
    (source, r, changed) => {
      applyCommon(source, r, out, changed);
      if (r.compaction?.skip) {
        out.skip = true;
        changed.push("compaction.skip");
      }
    },
  );
  return out;
}

/** afterCompaction and onAgentSwitch observe only: their notices show, nothing else applies. */
export async function runReadOnly<T extends "afterCompaction" | "onAgentSwitch">(
  handlers: readonly HookHandler<T>[],
  ctx: HookContexts[T],
): Promise<CommonOutcome> {
  const out = emptyOutcome();
  await runHandlers(
    handlers,
    () => ctx,
    out,
    (source, r: Result, changed) => {
      if (r.notice) {
        out.notices.push({ source, text: r.notice });
        changed.push("notice", r.notice);
      }
    },
  );
  return out;
}
