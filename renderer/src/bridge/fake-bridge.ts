/**
 * A bridge for component tests: it stands in for the transport only, so the components, hooks
 * and reducers under test are the real ones. A test says how each call is answered (`handle`,
 * `handleStream`), pushes events (`emit`) and moves the connection state (`setState`).
 *
 * Like the engine's BridgeService, it checks every request, response, chunk, result and event
 * against the contract's zod schemas. A request the real bridge would refuse is refused the same
 * way (the call rejects with a BridgeError "invalid payload") and written down in `refused`, as is
 * an answer the test made up that the engine could never give; testing/render.tsx fails the test
 * on either.
 */
import "./zod-csp.ts";
import { z } from "zod";
import {
  BridgeError,
  CALLS,
  CallCancelled,
  EVENTS,
  STREAMS,
  type Bridge,
  type CallRequest,
  type CallResponse,
  type EventPayload,
  type StreamChunk,
  type StreamRequest,
  type StreamResult,
} from "../../../main/bridge/contract.ts";
import type { CallName, EventName, StreamName } from "../../../main/bridge/names.ts";
import { ProblemError } from "../../../main/host/problem.ts";
import type { ConnectionState, LiveBridge } from "./index.ts";

export type CallHandler<N extends CallName> = (
  request: CallRequest<N>,
) => CallResponse<N> | Promise<CallResponse<N>>;

export type StreamHandler<N extends StreamName> = (
  request: StreamRequest<N>,
  stream: { chunk(chunk: StreamChunk<N>): void; signal: AbortSignal },
) => Promise<StreamResult<N>>;

/** A call or stream the UI started: its name and the request as the UI sent it. */
export interface Sent {
  name: CallName | StreamName;
  request: unknown;
}

type AnyHandler = (request: unknown, stream?: unknown) => unknown;

export class FakeBridge implements LiveBridge {
  /** Every call and stream the UI started, in order. */
  readonly sent: Sent[] = [];
  /** What the real bridge would have refused, one line each ("name request: why"). */
  readonly refused: string[] = [];
  private readonly handlers = new Map<CallName | StreamName, AnyHandler>();
  private readonly listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  private readonly stateListeners = new Set<(state: ConnectionState) => void>();
  private connection: ConnectionState = "open";

  /** Answers `name` with `handler` from now on (a throw becomes the call's BridgeError). */
  handle<N extends CallName>(name: N, handler: CallHandler<N>): this {
    this.handlers.set(name, handler as AnyHandler);
    return this;
  }

  handleStream<N extends StreamName>(name: N, handler: StreamHandler<N>): this {
    this.handlers.set(name, handler as AnyHandler);
    return this;
  }

  /** The requests the UI sent to `name`, oldest first. */
  requests<N extends CallName>(name: N): CallRequest<N>[];
  requests<N extends StreamName>(name: N): StreamRequest<N>[];
  requests(name: CallName | StreamName): unknown[] {
    return this.sent.filter((s) => s.name === name).map((s) => s.request);
  }

  /** Pushes an event to the UI; one the engine could never send throws (a mistake in the test). */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    const checked = EVENTS[event].safeParse(payload);
    if (!checked.success)
      throw new Error(`FakeBridge: the engine never sends this ${event}: ${pretty(checked.error)}`);
    for (const listener of [...(this.listeners.get(event) ?? [])]) listener(checked.data);
  }

  /** How many listeners `event` has now (a view that stopped listening has none). */
  listenerCount(event: EventName): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  get state(): ConnectionState {
    return this.connection;
  }

  setState(state: ConnectionState): void {
    this.connection = state;
    for (const listener of [...this.stateListeners]) listener(state);
  }

  onState(listener: (state: ConnectionState) => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  // Arrow functions: the UI passes `bridge.call` around unbound, as it may with the real ones.
  readonly call: Bridge["call"] = (name, ...request) => this.answer(name, request[0]) as never;

  readonly stream: Bridge["stream"] = (name, request, { onChunk, signal }) =>
    this.streamed(name, request, onChunk as (chunk: unknown) => void, signal) as never;

  readonly on: Bridge["on"] = (event, listener) => {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    const l = listener as (payload: unknown) => void;
    set.add(l);
    return () => set.delete(l);
  };

  private async answer(name: CallName, payload: unknown): Promise<unknown> {
    this.sent.push({ name, request: payload });
    const schemas = CALLS[name];
    const request = this.parse(name, schemas.request, payload);
    const handler = this.handler(name);
    const response = await this.run(name, () => handler(request));
    return this.checked(name, "response", schemas.response, response);
  }

  private async streamed(
    name: StreamName,
    payload: unknown,
    onChunk: (chunk: unknown) => void,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    if (signal?.aborted) throw new CallCancelled(name);
    this.sent.push({ name, request: payload });
    const schemas = STREAMS[name];
    const request = this.parse(name, schemas.request, payload);
    const handler = this.handler(name);
    const cancel = new AbortController();
    let open = true;
    const chunk = (value: unknown) => {
      if (!open || cancel.signal.aborted) return;
      const checked = schemas.chunk.safeParse(value);
      // The engine drops an invalid chunk; the test that made it up is told.
      if (checked.success) onChunk(checked.data);
      else this.refused.push(`${name} chunk: ${pretty(checked.error)}`);
    };
    // Cancelling: the handler sees its signal abort and the caller hears "cancelled" at once.
    const cancelled = Promise.withResolvers<never>();
    const abort = () => {
      cancel.abort();
      cancelled.reject(new CallCancelled(name));
    };
    signal?.addEventListener("abort", abort, { once: true });
    try {
      const result = await Promise.race([
        this.run(name, () => handler(request, { chunk, signal: cancel.signal })),
        cancelled.promise,
      ]);
      return this.checked(name, "result", schemas.result, result);
    } finally {
      open = false;
      signal?.removeEventListener("abort", abort);
    }
  }

  private handler(name: CallName | StreamName): AnyHandler {
    const handler = this.handlers.get(name);
    if (handler) return handler;
    throw new BridgeError({
      source: name,
      title: "no answer in this test",
      suggestion: `give it one: bridge.handle("${name}", …)`,
    });
  }

  private parse(name: string, schema: z.ZodType, payload: unknown): unknown {
    const request = schema.safeParse(payload);
    if (request.success) return request.data;
    const cause = pretty(request.error);
    this.refused.push(`${name} request: ${cause}`);
    throw new BridgeError({ source: name, title: "invalid payload", cause });
  }

  private async run(name: string, handler: () => unknown): Promise<unknown> {
    try {
      return await handler();
    } catch (err) {
      if (err instanceof BridgeError || err instanceof ProblemError)
        throw new BridgeError(err.problem);
      throw new BridgeError({
        source: name,
        title: err instanceof Error ? err.message : String(err),
      });
    }
  }

  private checked(name: string, what: string, schema: z.ZodType, value: unknown): unknown {
    const checked = schema.safeParse(value);
    if (checked.success) return checked.data;
    this.refused.push(`${name} ${what} (the test's answer): ${pretty(checked.error)}`);
    throw new BridgeError({ source: name, title: `internal error (invalid ${what})` });
  }
}

const pretty = (error: z.ZodError): string => z.prettifyError(error).replace(/\s*\n\s*/g, " ");
