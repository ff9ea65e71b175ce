/**
 * What one conversation's turns run with (EngineDeps): the engine's registries, approvals asked
 * of the conversation's own questioner (else the engine's), session saving, and the limits.
 */
import type { EventSink } from "../turn/events.ts";
import type { EngineDeps } from "../turn/state.ts";
import type { HookHandler, HookRegistry, HookTiming } from "../turn/hooks/types.ts";
import type { AgentRegistry } from "../agents/registry.ts";
import type { Homes } from "../config/homes.ts";
import type { Contributions } from "../contributions/contributions.ts";
import type { DeclarativeExtensions } from "../extensions/declarative.ts";
import type { QuestionPort } from "../host/questions.ts";
import type { SessionStore } from "../sessions/store.ts";
import type { ApprovalPolicy } from "../tools/approval.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { EngineOptions } from "./options.ts";
import { savingEmit, storeSink } from "./session-sink.ts";
import type { ConsentGate } from "../code-plugins/consent/gate.ts";

/** The parts of the engine a turn reads. */
export interface TurnSources {
  readonly homes: Homes;
  readonly agents: AgentRegistry;
  readonly tools: ToolRegistry;
  readonly extensions: Contributions;
  readonly approvals: ApprovalPolicy;
  readonly declarative: DeclarativeExtensions;
  readonly store: SessionStore;
  /** Which plugins were granted `permissions.rewrite` for a tool. */
  readonly consent: Pick<ConsentGate, "rewriteGranted">;
}

export function turnDeps(
  engine: TurnSources,
  opts: EngineOptions,
  turn: { emit: EventSink; sessionId: string; questions: QuestionPort | undefined },
): EngineDeps {
  const { emit, sessionId } = turn;
  const questions = turn.questions ?? opts.questions;
  const session = sessionId
    ? storeSink(engine.store, sessionId, (err) =>
        emit({
          type: "notice",
          source: "sessions",
          text: `could not save the session: ${err.message}`,
        }),
      )
    : null;
  // The error notice above goes out unsaved: saving it could fail the same way.
  const saved = session ? savingEmit(emit, session) : emit;
  return {
    workdir: engine.homes.workdir,
    agents: engine.agents,
    resolveModel: opts.resolveModel,
    tools: engine.tools,
    hooks: withHookStatus(engine.extensions.hooks, emit),
    approve: (tool, args, signal, rewrittenBy, preApproved) =>
      engine.approvals
        .decide(
          tool.approvalName ?? tool.name,
          args,
          {
            // Claude Code's Notification hooks run when a person is asked.
            questions: engine.declarative.notifying(questions, sessionId, engine.homes.workdir),
            signal,
            rewrittenBy,
            preApproved,
            rewritesGranted: rewrittenBy.filter((plugin) =>
              engine.consent.rewriteGranted(plugin, tool.name),
            ),
            // Claude Code's PermissionRequest hooks may answer for the person; each says so.
            beforeAsking: async (name, callArgs) => {
              const { decision, notes } = await engine.declarative.permissionRequest(
                { id: sessionId, workdir: engine.homes.workdir },
                name,
                callArgs,
              );
              for (const text of notes) saved({ type: "notice", source: "hooks", text });
              return decision;
            },
          },
          tool.binding,
        )
        .then((decision) => {
          if (decision.allowed && decision.by)
            saved({
              type: "notice",
              source: "hooks",
              text: `${tool.name} allowed by ${decision.by}${decision.arguments ? ", which changed its input" : ""} (you were not asked)`,
            });
          return decision;
        }),
    questions,
    emit: saved,
    session,
    compaction: { enabled: true, threshold: 80, keepLast: 6 },
    retry: { maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 30_000 },
    promptFragments: (keep) => engine.extensions.promptFragments.texts(keep),
    listings: () => engine.extensions.promptFragments.listings(),
    vars: opts.vars ?? {},
    maxSteps: opts.maxSteps,
    thinkMode: opts.thinkMode ?? "off",
    toolTimeoutMs: 120_000,
    mcpServers: () => engine.extensions.mcpServers.names(),
  };
}

/** A replay's turn: the same registries, nothing saved, compacted, asked or executed. */
export function dryRunDeps(
  base: EngineDeps,
  over: Pick<EngineDeps, "hooks" | "resolveModel" | "emit">,
): EngineDeps {
  return {
    ...base,
    ...over,
    session: null,
    compaction: { enabled: false, threshold: 100, keepLast: 0 },
    retry: { maxAttempts: 1, baseDelayMs: 0, maxDelayMs: 0 },
    approve: async () => ({ allowed: false, reason: "a replay runs no tools" }),
  };
}

/**
 * The hooks, each Claude Code hook given a way to say what it is doing: a `hook_status` event
 * when it starts saying so, and one when it ends (the CLI's activity line, the app's timeline).
 */
function withHookStatus(hooks: HookRegistry, emit: EventSink): HookRegistry {
  return {
    handlers: <T extends HookTiming>(timing: T) =>
      hooks.handlers(timing).map((h): HookHandler<T> => {
        if (!h.claudeHook) return h;
        return {
          ...h,
          invoke: async (ctx) => {
            let shown: string | undefined;
            const live = {
              status: (text: string) => {
                shown = text;
                emit({ type: "hook_status", source: h.source, text, running: true });
              },
            };
            try {
              return await h.invoke(ctx, live);
            } finally {
              if (shown !== undefined)
                emit({ type: "hook_status", source: h.source, text: shown, running: false });
            }
          },
        };
      }),
  };
}
