/**
 * A bridge client over `islet serve`'s WebSocket, as the page speaks it (protocol.ts frames), for
 * e2e tests that drive a turn without depending on the chat UI.
 */
import WebSocket from "ws";
import { BRIDGE_PATH, TOKEN_PARAM } from "../../main/bridge/protocol.ts";

export interface BridgeSocket {
  call(name: string, payload?: unknown): Promise<unknown>;
  /** Resolves with the result; `onChunk` gets each chunk. */
  stream(name: string, payload: unknown, onChunk?: (chunk: unknown) => void): Promise<unknown>;
  /** Every event received so far, in order. */
  events: { event: string; payload: unknown }[];
  close(): void;
}

export async function connectBridgeSocket(url: string): Promise<BridgeSocket> {
  const page = new URL(url);
  const token = page.searchParams.get(TOKEN_PARAM) ?? "";
  const socket = new WebSocket(
    `ws://${page.host}${BRIDGE_PATH}?${TOKEN_PARAM}=${encodeURIComponent(token)}`,
    { headers: { Origin: page.origin } },
  );
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("error", reject);
  });
  let next = 1;
  const pending = new Map<
    number,
    { resolve(v: unknown): void; reject(e: Error): void; onChunk?: (c: unknown) => void }
  >();
  const events: { event: string; payload: unknown }[] = [];
  socket.on("message", (data) => {
    const frame = JSON.parse(String(data)) as Record<string, unknown>;
    if (typeof frame.event === "string") {
      events.push({ event: frame.event, payload: frame.payload });
      return;
    }
    const waiter = pending.get(frame.id as number);
    if (!waiter) return;
    if ("chunk" in frame) return waiter.onChunk?.(frame.chunk);
    pending.delete(frame.id as number);
    if (frame.ok === true) waiter.resolve(frame.result);
    else
      waiter.reject(
        new Error((frame.problem as { title?: string } | undefined)?.title ?? "cancelled"),
      );
  });
  const send = (
    kind: "call" | "stream",
    name: string,
    payload: unknown,
    onChunk?: (c: unknown) => void,
  ) =>
    new Promise<unknown>((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject, onChunk });
      socket.send(
        JSON.stringify({ id, [kind]: name, ...(payload === undefined ? {} : { payload }) }),
      );
    });
  return {
    call: (name, payload) => send("call", name, payload),
    stream: (name, payload, onChunk) => send("stream", name, payload, onChunk),
    events,
    close: () => socket.close(),
  };
}
