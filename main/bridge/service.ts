/**
 * The bridge's main side, transport-free. Every connection is a client with an id (a WebSocket,
 * an Electron webContents). Calls and streamed calls are validated against the contract both
 * ways and handed to the handlers with the calling client and an abort signal; events go to an
 * address: every client, one client, or the clients that joined a conversation. Both transports
 * call into one of these.
 */
import { z } from "zod";
import { remedyOf } from "../core/remedy.ts";
import { ProblemError, type Problem } from "../host/problem.ts";
import {
  BridgeError,
  CALLS,
  CallCancelled,
  EVENTS,
  STREAMS,
  type CallRequest,
  type CallResponse,
  type EventPayload,
  type StreamChunk,
  type StreamRequest,
  type StreamResult,
} from "./contract.ts";
import {
  isCallName,
  isEventName,
  isStreamName,
  type CallName,
  type EventName,
  type StreamName,
} from "./names.ts";

export type ClientId = string;

/** Who an event is for. */
export type Address =
  | { readonly to: "everyone" }
  | { readonly to: "client"; readonly client: ClientId }
  | { readonly to: "conversation"; readonly conversation: string; readonly except?: ClientId };

export const EVERYONE: Address = { to: "everyone" };
export const toClient = (client: ClientId): Address => ({ to: "client", client });
/** The clients that opened the conversation; `except`: but that one (it has the events already). */
export const toConversation = (conversation: string, except?: ClientId): Address =>
  except === undefined
    ? { to: "conversation", conversation }
    : { to: "conversation", conversation, except };

export interface CallContext {
  client: ClientId;
  /** Aborts when the caller cancels (streams) or disconnects: the handler should stop. */
  signal: AbortSignal;
}

export interface StreamContext<N extends StreamName> extends CallContext {
  /** Sends one chunk to the caller (dropped once the call has ended or was cancelled). */
  chunk(chunk: StreamChunk<N>): void;
}

export type CallHandlers = {
  [N in CallName]: (
    request: CallRequest<N>,
    ctx: CallContext,
  ) => CallResponse<N> | Promise<CallResponse<N>>;
};
export type StreamHandlers = {
  [N in StreamName]: (request: StreamRequest<N>, ctx: StreamContext<N>) => Promise<StreamResult<N>>;
};
export type BridgeHandlers = CallHandlers & StreamHandlers;

/** What a transport provides for one connection. */
export interface ClientTransport {
  /** An event addressed to this client, already validated. */
  deliver(event: EventName, payload: unknown): void;
}

/** One connection's handle on the service; names and payloads from it are untrusted. */
export interface BridgeClient {
  readonly id: ClientId;
  /** Resolves with the validated response; rejects with BridgeError. */
  call(name: unknown, payload: unknown): Promise<unknown>;
  /** Chunks to `onChunk`; resolves with the result; rejects with BridgeError or CallCancelled. */
  stream(
    name: unknown,
    payload: unknown,
    onChunk: (chunk: unknown) => void,
    signal?: AbortSignal,
  ): Promise<unknown>;
  /** The connection is gone: its calls are cancelled and it leaves its conversations. */
  close(): void;
}

interface Connected {
  transport: ClientTransport;
  gone: AbortController;
}

function problemOf(source: string, err: unknown): Problem {
  if (err instanceof ProblemError || err instanceof BridgeError) return err.problem;
  const remedy = remedyOf(err);
  return {
    source,
    title: err instanceof Error ? err.message : String(err),
    ...(remedy ? { remedy } : {}),
  };
}

export class BridgeService {
  private handlers: BridgeHandlers | null = null;
  private readonly clients = new Map<ClientId, Connected>();
  private readonly rooms = new Map<string, Set<ClientId>>();
  private readonly disconnectListeners = new Set<(client: ClientId) => void>();
  private readonly log: (line: string) => void;
  private nextClient = 1;

  constructor(opts: { log?: (line: string) => void } = {}) {
    this.log = opts.log ?? ((line) => console.error(`[islet] ${line}`));
  }

  /** Starts answering calls (the handlers usually need the service itself, hence two steps). */
  handle(handlers: BridgeHandlers): void {
    this.handlers = handlers;
  }

  connect(transport: ClientTransport): BridgeClient {
    const id = `client-${this.nextClient++}`;
    const gone = new AbortController();
    this.clients.set(id, { transport, gone });
    return {
      id,
      call: (name, payload) => this.call(id, gone.signal, name, payload),
      stream: (name, payload, onChunk, signal) =>
        this.stream(
          id,
          signal ? AbortSignal.any([gone.signal, signal]) : gone.signal,
          name,
          payload,
          onChunk,
        ),
      close: () => this.disconnect(id),
    };
  }

  /** Runs after a client is gone (its streams already cancelled, its conversations left). */
  onDisconnect(listener: (client: ClientId) => void): () => void {
    this.disconnectListeners.add(listener);
    return () => this.disconnectListeners.delete(listener);
  }

  /** Pushes an event to its address; an invalid payload is logged and dropped. */
  emit<E extends EventName>(to: Address, event: E, payload: EventPayload<E>): void {
    if (!isEventName(event)) return;
    const checked = EVENTS[event].safeParse(payload);
    if (!checked.success) {
      this.log(`event ${event} dropped (invalid payload): ${z.prettifyError(checked.error)}`);
      return;
    }
    for (const id of this.recipients(to)) {
      try {
        this.clients.get(id)?.transport.deliver(event, checked.data);
      } catch (err) {
        this.log(`event ${event}: a transport failed: ${(err as Error).message}`);
      }
    }
  }

  /** The clients an address reaches now. */
  recipients(to: Address): ClientId[] {
    if (to.to === "everyone") return [...this.clients.keys()];
    if (to.to === "client") return this.clients.has(to.client) ? [to.client] : [];
    const room = [...(this.rooms.get(to.conversation) ?? [])];
    return to.except === undefined ? room : room.filter((id) => id !== to.except);
  }

  /** The client now receives the conversation's events (until it leaves or disconnects). */
  join(client: ClientId, conversation: string): void {
    if (!this.clients.has(client)) return;
    const room = this.rooms.get(conversation) ?? new Set();
    room.add(client);
    this.rooms.set(conversation, room);
  }

  isMember(client: ClientId, conversation: string): boolean {
    return this.rooms.get(conversation)?.has(client) ?? false;
  }

  private async call(
    client: ClientId,
    signal: AbortSignal,
    name: unknown,
    payload: unknown,
  ): Promise<unknown> {
    if (!isCallName(name)) {
      const hint = isStreamName(name) ? " (it is a streamed call: open it as a stream)" : "";
      throw new BridgeError({
        source: "bridge",
        title: `unknown call ${JSON.stringify(name)}${hint}`,
      });
    }
    const schemas = CALLS[name];
    const request = this.parse(name, schemas.request, payload);
    const handler = this.handler(name) as (r: unknown, ctx: CallContext) => unknown;
    const result = await this.run(name, () => handler(request, { client, signal }));
    return this.checked(name, "response", schemas.response, result);
  }

  private async stream(
    client: ClientId,
    signal: AbortSignal,
    name: unknown,
    payload: unknown,
    onChunk: (chunk: unknown) => void,
  ): Promise<unknown> {
    if (!isStreamName(name)) {
      const hint = isCallName(name) ? " (it is a plain call, not a stream)" : "";
      throw new BridgeError({
        source: "bridge",
        title: `unknown stream ${JSON.stringify(name)}${hint}`,
      });
    }
    const schemas = STREAMS[name];
    const request = this.parse(name, schemas.request, payload);
    if (signal.aborted) throw new CallCancelled(name);
    let open = true;
    const chunk = (value: unknown) => {
      if (!open || signal.aborted) return;
      const checked = schemas.chunk.safeParse(value);
      if (checked.success) onChunk(checked.data);
      else this.log(`${name} chunk dropped (invalid): ${z.prettifyError(checked.error)}`);
    };
    const handler = this.handler(name) as (r: unknown, ctx: StreamContext<StreamName>) => unknown;
    try {
      const result = await this.run(name, () => handler(request, { client, signal, chunk }));
      if (signal.aborted) throw new CallCancelled(name);
      return this.checked(name, "result", schemas.result, result);
    } catch (err) {
      // However the handler ended once cancelled, the caller hears "cancelled".
      if (signal.aborted) throw new CallCancelled(name);
      throw err;
    } finally {
      open = false;
    }
  }

  private handler(name: CallName | StreamName): unknown {
    if (!this.handlers)
      throw new BridgeError({
        source: name,
        title: "Islet is still starting",
        suggestion: "try again",
      });
    return this.handlers[name];
  }

  private parse(name: string, schema: z.ZodType, payload: unknown): unknown {
    const request = schema.safeParse(payload);
    if (!request.success)
      throw new BridgeError({
        source: name,
        title: "invalid payload",
        cause: z.prettifyError(request.error).replace(/\s*\n\s*/g, " "),
      });
    return request.data;
  }

  private async run(name: string, handler: () => unknown): Promise<unknown> {
    try {
      return await handler();
    } catch (err) {
      throw new BridgeError(problemOf(name, err));
    }
  }

  private checked(name: string, what: string, schema: z.ZodType, value: unknown): unknown {
    const checked = schema.safeParse(value);
    if (checked.success) return checked.data;
    this.log(`${name} produced an invalid ${what}: ${z.prettifyError(checked.error)}`);
    throw new BridgeError({ source: name, title: `internal error (invalid ${what})` });
  }

  private disconnect(id: ClientId): void {
    const client = this.clients.get(id);
    if (!client) return;
    this.clients.delete(id);
    client.gone.abort();
    for (const [conversation, room] of this.rooms) {
      room.delete(id);
      if (room.size === 0) this.rooms.delete(conversation);
    }
    for (const listener of this.disconnectListeners) {
      try {
        listener(id);
      } catch (err) {
        this.log(`a disconnect listener failed: ${(err as Error).message}`);
      }
    }
  }
}
