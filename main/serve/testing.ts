/** Test support: a WebSocket client of `islet serve`'s bridge speaking the raw frames. */
import { WebSocket } from "ws";

type Frame = Record<string, unknown>;

export interface SocketClient {
  ws: WebSocket;
  /** The next frame not yet taken, in arrival order. */
  next(): Promise<Frame>;
  /** The next event frame named `event` (other frames stay for next()/reply()). */
  event(event: string): Promise<Frame>;
  /** Sends a call and resolves with its reply frame. */
  call(call: string, payload?: unknown): Promise<Frame>;
  /** Starts a stream; `chunks` fills as they arrive, `end` is its last frame. */
  stream(stream: string, payload: unknown): { id: number; chunks: unknown[]; end: Promise<Frame> };
  cancel(id: number): void;
  /** Every event frame received so far. */
  events: Frame[];
  close(): Promise<void>;
}

export function connectSocket(
  port: number,
  opts: { token: string; origin?: string },
): Promise<SocketClient> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/bridge?token=${opts.token}`, {
    origin: opts.origin ?? `http://127.0.0.1:${port}`,
  });
  const inbox: Frame[] = [];
  const events: Frame[] = [];
  const waiters: { match(frame: Frame): boolean; resolve(frame: Frame): void }[] = [];
  const chunks = new Map<number, unknown[]>();
  ws.on("message", (data: Buffer) => {
    const frame = JSON.parse(data.toString()) as Frame;
    if ("event" in frame) events.push(frame);
    if ("chunk" in frame) {
      chunks.get(frame.id as number)?.push(frame.chunk);
      return;
    }
    const i = waiters.findIndex((w) => w.match(frame));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(frame);
    else inbox.push(frame);
  });
  const take = (match: (frame: Frame) => boolean): Promise<Frame> => {
    const i = inbox.findIndex(match);
    if (i >= 0) return Promise.resolve(inbox.splice(i, 1)[0]);
    return new Promise((resolve) => waiters.push({ match, resolve }));
  };
  let nextId = 0;
  const client: SocketClient = {
    ws,
    events,
    next: () => take(() => true),
    event: (name) => take((f) => f.event === name),
    call(call, payload) {
      const id = ++nextId;
      ws.send(JSON.stringify({ id, call, payload }));
      return take((f) => f.id === id);
    },
    stream(stream, payload) {
      const id = ++nextId;
      const received: unknown[] = [];
      chunks.set(id, received);
      ws.send(JSON.stringify({ id, stream, payload }));
      return { id, chunks: received, end: take((f) => f.id === id && !("chunk" in f)) };
    },
    cancel: (id) => ws.send(JSON.stringify({ cancel: id })),
    close: () =>
      new Promise((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve();
        ws.once("close", () => resolve());
        ws.close();
      }),
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(client));
    ws.once("unexpected-response", (_req, res) =>
      reject(new Error(`refused with HTTP ${res.statusCode}`)),
    );
    ws.once("error", reject);
  });
}
