/**
 * The bridge's main side, transport-free: validates every request and response against the
 * contract, dispatches to the handlers, and fans pushed events out to the transports. Both
 * transports (Electron IPC, the serve WebSocket) call into one of these.
 */
import { z } from "zod";
import {
  CALLS,
  EVENTS,
  type CallRequest,
  type CallResponse,
  type EventPayload,
} from "./contract.ts";
import { isCallName, isEventName, type CallName, type EventName } from "./names.ts";

export type BridgeHandlers = {
  [N in CallName]: (request: CallRequest<N>) => CallResponse<N> | Promise<CallResponse<N>>;
};

export type BridgeListener = (event: EventName, payload: unknown) => void;

/** A refused or failed call; the message is meant for the user (never a stack). */
export class BridgeError extends Error {
  override name = "BridgeError";
}

export class BridgeService {
  private readonly handlers: BridgeHandlers;
  private readonly listeners = new Set<BridgeListener>();
  private readonly log: (line: string) => void;

  constructor(handlers: BridgeHandlers, opts: { log?: (line: string) => void } = {}) {
    this.handlers = handlers;
    this.log = opts.log ?? ((line) => console.error(`[islet] ${line}`));
  }

  /** One call from a transport: the name and payload are untrusted. */
  async call(name: unknown, payload: unknown): Promise<unknown> {
    if (!isCallName(name)) throw new BridgeError(`unknown call ${JSON.stringify(name)}`);
    const schemas = CALLS[name];
    const request = schemas.request.safeParse(payload);
    if (!request.success)
      throw new BridgeError(`${name}: invalid payload: ${z.prettifyError(request.error)}`);
    let result: unknown;
    try {
      result = await (this.handlers[name] as (r: unknown) => unknown)(request.data);
    } catch (err) {
      throw new BridgeError(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    }
    const response = schemas.response.safeParse(result);
    if (!response.success) {
      this.log(`${name} produced an invalid response: ${z.prettifyError(response.error)}`);
      throw new BridgeError(`${name}: internal error (invalid response)`);
    }
    return response.data;
  }

  /** Pushes an event to every transport; an invalid payload is logged and dropped. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    if (!isEventName(event)) return;
    const checked = EVENTS[event].safeParse(payload);
    if (!checked.success) {
      this.log(`event ${event} dropped (invalid payload): ${z.prettifyError(checked.error)}`);
      return;
    }
    for (const listener of this.listeners) {
      try {
        listener(event, checked.data);
      } catch (err) {
        this.log(`event ${event}: a transport failed: ${(err as Error).message}`);
      }
    }
  }

  subscribe(listener: BridgeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
