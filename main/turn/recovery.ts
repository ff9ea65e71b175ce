/**
 * A provider call with recovery, in the order SPEC §5 gives: compaction on context overflow,
 * backoff for transient errors, failover to the agent's next agent, then OnError hooks (retry at
 * most three times, or skip).
 */
import type { ChatRequest } from "../providers/types.ts";
import type { EventSink } from "./events.ts";
import { ProviderError } from "../providers/types.ts";
import { promptTooLarge } from "./prompt-too-large.ts";
import { compactHistory } from "./compaction.ts";
import { buildContext } from "./context.ts";
import { runOnError } from "./hooks/pipeline.ts";
import {
  backoffDelay,
  emptyResponse,
  sleep,
  streamOnce,
  type ModelResponse,
} from "./model-call.ts";
import { reportOutcome } from "./report.ts";
import type { AgentState, EngineDeps } from "./state.ts";

/** OnError may ask for retries; the seed caps them at three per call. */
export const MAX_HOOK_RETRIES = 3;

/**
 * A stalled server (a connect, first-token or idle limit fired) rarely recovers within a turn:
 * one more try (a model may have finished loading meanwhile), not the whole budget, so a stall
 * costs at most two limits instead of four.
 */
export const MAX_STALL_ATTEMPTS = 2;

export interface RecoveryHost {
  state: AgentState;
  deps: EngineDeps;
  switchAgent(name: string): Promise<void>;
  ensureModel(): Promise<void>;
}

export type CallResult =
  { kind: "ok"; response: ModelResponse } | { kind: "error"; error: ProviderError };

function asProviderError(err: unknown): ProviderError {
  return err instanceof ProviderError ? err : new ProviderError((err as Error).message, "");
}

export async function callWithRecovery(
  host: RecoveryHost,
  prepare: () => Promise<ChatRequest>,
  signal: AbortSignal,
): Promise<CallResult> {
  const { deps, state } = host;
  const notice = (text: string) => deps.emit({ type: "notice", source: "engine", text });
  let attempt = 0;
  let hookRetries = 0;
  let compacted = false;
  const tried = new Set<string>([state.agent.name]);
  for (;;) {
    const request = await prepare();
    // What this attempt streamed: withdrawn if it fails, so no reader keeps or repeats it.
    let partial = "";
    const emit: EventSink = (event) => {
      if (event.type === "assistant_delta") partial += event.text;
      deps.emit(event);
    };
    try {
      return {
        kind: "ok",
        response: await streamOnce(state.resolved!.provider, request, emit),
      };
    } catch (err) {
      const error = err as ProviderError;
      if (partial) deps.emit({ type: "assistant_withdrawn", text: partial, reason: error.message });
      if (signal.aborted) {
        return {
          kind: "ok",
          response: { ...emptyResponse(), aborted: true, stopReason: "aborted" },
        };
      }
      if (error.errorType === "context_exhausted" && !compacted) {
        compacted = true;
        notice("The context window is full; compacting and retrying.");
        await compactHistory(state, deps, "recovery", signal);
        continue;
      }
      attempt++;
      const maxAttempts = error.timeout
        ? Math.min(MAX_STALL_ATTEMPTS, deps.retry.maxAttempts)
        : deps.retry.maxAttempts;
      if (error.retryable && attempt < maxAttempts) {
        const { baseDelayMs, maxDelayMs } = deps.retry;
        const delayMs = Math.round(
          backoffDelay(attempt, baseDelayMs, maxDelayMs, error.retryAfterMs),
        );
        deps.emit({ type: "retry", attempt, delayMs, reason: error.message });
        notice(
          `${error.message}; retrying in ${(delayMs / 1000).toFixed(1)} s (attempt ${attempt + 1} of ${maxAttempts}).`,
        );
        await sleep(delayMs, signal);
        continue;
      }
      const next = state.agent.failover.find((name) => !tried.has(name) && deps.agents.has(name));
      if (next) {
        tried.add(next);
        notice(`${error.message}; failing over to agent "${next}".`);
        await host.switchAgent(next);
        try {
          await host.ensureModel();
        } catch (resolveErr) {
          return { kind: "error", error: asProviderError(resolveErr) };
        }
        attempt = 0;
        compacted = false;
        continue;
      }
      const onError = await runOnError(deps.hooks.handlers("onError"), {
        ...buildContext(state, deps),
        error: error.message,
        errorType: error.errorType,
        retryable: error.retryable,
        statusCode: error.statusCode,
      });
      reportOutcome(deps, onError, { state });
      state.turnDisabledTools.push(...onError.disableTools);
      if (onError.retry && hookRetries < MAX_HOOK_RETRIES) {
        // A hook retry is one more call, not another round of built-in backoff.
        hookRetries++;
        attempt = deps.retry.maxAttempts;
        continue;
      }
      if (onError.skip) return { kind: "ok", response: emptyResponse() };
      const contextLength = state.resolved?.info.contextLength ?? 0;
      return { kind: "error", error: promptTooLarge(error, request, contextLength) };
    }
  }
}
