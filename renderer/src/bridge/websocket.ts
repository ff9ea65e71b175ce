/**
 * The bridge over `islet serve`'s loopback WebSocket. The token comes from the page's own URL
 * (the one `islet serve` printed). Calls made while the socket is (re)connecting wait for it;
 * a dropped connection fails the calls and streams in flight (the server cancels those streams:
 * the socket was their client) and reconnects with backoff, until the server
 * says this page's token is no longer valid (`islet serve` restarted on the same port): then the
 * state is "refused" for good and the user is told to open the new URL.
 */
// First: zod must be jitless before protocol.ts builds its schemas (CSP has no 'unsafe-eval').
import "./zod-csp.ts";
import { CallCancelled, type Bridge, type Outcome } from "../../../main/bridge/contract.ts";
import type { EventName } from "../../../main/bridge/names.ts";
import {
  BRIDGE_PATH,
  ServerFrame,
  TOKEN_PARAM,
  type ClientFrame,
} from "../../../main/bridge/protocol.ts";
import { onAbort, settle } from "./outcome.ts";

export type ConnectionState = "connecting" | "open" | "closed" | "refused";

interface Pending {
  name: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** Streams: where chunks go. */
  onChunk?(chunk: unknown): void;
}

export interface WebSocketBridge extends Bridge {
  readonly state: ConnectionState;
  onState(listener: (state: ConnectionState) => void): () => void;
  /** Closes the socket for good (no reconnect); the server cancels this page's streams. */
  close(): void;
}

export function websocketBridge(location: Location): WebSocketBridge {
  const token = new URLSearchParams(location.search).get(TOKEN_PARAM) ?? "";
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const url = `${scheme}//${location.host}${BRIDGE_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`;
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(payload: unknown) => void>>();
  const stateListeners = new Set<(state: ConnectionState) => void>();
  let waiting: (() => void)[] = [];
  let socket: WebSocket;
  let state: ConnectionState = "connecting";
  let nextId = 1;
  let retryMs = 250;
  let closed = false;

  const setState = (next: ConnectionState) => {
    state = next;
    for (const l of stateListeners) l(next);
  };

  function connect(): void {
    if (closed) return;
    socket = new WebSocket(url);
    setState("connecting");
    socket.onopen = () => {
      retryMs = 250;
      setState("open");
      const ready = waiting;
      waiting = [];
      for (const go of ready) go();
    };
    socket.onmessage = (message) => {
      const parsed = ServerFrame.safeParse(JSON.parse(String(message.data)));
      if (!parsed.success) return;
      const frame = parsed.data;
      if ("event" in frame) {
        for (const l of listeners.get(frame.event as EventName) ?? []) l(frame.payload);
        return;
      }
      if (frame.id === null) return;
      const call = pending.get(frame.id);
      if (!call) return;
      if ("chunk" in frame) return call.onChunk?.(frame.chunk);
      pending.delete(frame.id);
      try {
        call.resolve(settle(call.name, frame as Outcome<unknown>));
      } catch (error) {
        call.reject(error as Error);
      }
    };
    socket.onclose = () => {
      for (const call of pending.values())
        call.reject(new Error("the connection to Islet was lost"));
      pending.clear();
      setState("closed");
      if (closed) return;
      void tokenRefused().then((refused) => {
        if (refused) return setState("refused");
        setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, 5000);
      });
    };
  }
  connect();

  /** A browser cannot see why a WebSocket upgrade failed; the page itself answers 401 then. */
  async function tokenRefused(): Promise<boolean> {
    try {
      const page = await fetch(location.href, { method: "HEAD", cache: "no-store" });
      return page.status === 401;
    } catch {
      return false; // the server is down: keep retrying
    }
  }

  const sendFrame = (frame: ClientFrame) => socket.send(JSON.stringify(frame));

  /** Sends a call (or a stream, with `onChunk`) once the socket is open. */
  function start(
    name: string,
    payload: unknown,
    onChunk?: (chunk: unknown) => void,
  ): { done: Promise<unknown>; cancel(): void } {
    let id: number | null = null;
    let cancelled = false;
    let unsent: ((error: Error) => void) | null = null;
    const send = () =>
      new Promise<unknown>((resolve, reject) => {
        id = nextId++;
        pending.set(id, { name, resolve, reject, onChunk });
        sendFrame(onChunk ? { id, stream: name, payload } : { id, call: name, payload });
      });
    let done: Promise<unknown>;
    if (state === "open") done = send();
    else if (state === "refused")
      done = Promise.reject(new Error("this page's access token is no longer valid"));
    else
      done = new Promise<unknown>((resolve, reject) => {
        unsent = reject;
        waiting.push(() => {
          if (!cancelled) send().then(resolve, reject);
        });
      });
    return {
      done,
      cancel() {
        cancelled = true;
        // Sent: the server stops it and answers "cancelled"; not sent yet: it never will be.
        if (id !== null && state === "open") sendFrame({ cancel: id });
        else if (id === null) unsent?.(new CallCancelled(name));
      },
    };
  }

  return {
    get state() {
      return state;
    },
    close() {
      closed = true;
      socket.close();
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    call(name, ...request) {
      return start(name, request[0]).done as never;
    },
    stream(name, request, { onChunk, signal }) {
      if (signal?.aborted) return Promise.reject(new CallCancelled(name));
      const call = start(name, request, onChunk as (chunk: unknown) => void);
      const unlink = onAbort(signal, call.cancel);
      return call.done.finally(unlink) as never;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      const l = listener as (payload: unknown) => void;
      set.add(l);
      return () => set.delete(l);
    },
  };
}
