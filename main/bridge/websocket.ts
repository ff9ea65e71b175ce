/**
 * The bridge over a loopback WebSocket (`islet serve`): frames from protocol.ts, payloads checked
 * by the service exactly as over Electron IPC; each socket is one client. The upgrade is refused unless it carries the
 * session's token and comes from the page this server served (Origin and Host checks stop other
 * sites and DNS-rebinding pages from driving the engine).
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { z } from "zod";
import { BridgeError, CallCancelled } from "./contract.ts";
import { BRIDGE_PATH, ClientFrame, type ServerFrame } from "./protocol.ts";
import type { BridgeService } from "./service.ts";

export interface WebSocketBridgeOptions {
  service: BridgeService;
  /** Null when the request may connect, else why not (sent as the HTTP refusal). */
  authorize(request: IncomingMessage, url: URL): string | null;
  /** Largest frame accepted from the page. */
  maxPayloadBytes?: number;
}

export interface WebSocketBridge {
  /** Open connections (tests and shutdown). */
  readonly clients: number;
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, text: string): void {
  const body = `${text}\n`;
  socket.end(
    `HTTP/1.1 ${status} ${status === 404 ? "Not Found" : "Forbidden"}\r\n` +
      `Content-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Connection: close\r\n\r\n${body}`,
  );
}

export function attachWebSocketBridge(
  server: Server,
  opts: WebSocketBridgeOptions,
): WebSocketBridge {
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: opts.maxPayloadBytes ?? 4 * 1024 * 1024,
  });

  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname !== BRIDGE_PATH) return refuse(socket, 404, "no such endpoint");
    const refusal = opts.authorize(request, url);
    if (refusal !== null) return refuse(socket, 403, refusal);
    wss.handleUpgrade(request, socket, head, (ws) => serve(ws, opts.service));
  });

  return {
    get clients() {
      return wss.clients.size;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const ws of wss.clients) ws.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** The frame that ends call or stream `id`, from how it ended. */
function ending(id: number, outcome: { result: unknown } | { error: unknown }): ServerFrame {
  if ("result" in outcome) return { id, ok: true, result: outcome.result };
  const err = outcome.error;
  if (err instanceof CallCancelled) return { id, ok: false, cancelled: true };
  if (err instanceof BridgeError) return { id, ok: false, problem: err.problem };
  return { id, ok: false, problem: { source: "bridge", title: String(err) } };
}

/** One socket is one client: its streams are cancelled and its questions withdrawn when it closes. */
function serve(ws: WebSocket, service: BridgeService): void {
  const send = (frame: ServerFrame) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const client = service.connect({ deliver: (event, payload) => send({ event, payload }) });
  const streams = new Map<number, AbortController>();
  ws.on("close", () => client.close());
  ws.on("error", () => ws.terminate());
  ws.on("message", (data, isBinary) => {
    let frame: ClientFrame;
    try {
      if (isBinary) throw new Error("binary frames are not part of the protocol");
      const parsed = ClientFrame.safeParse(JSON.parse(data.toString()));
      if (!parsed.success) throw new Error(z.prettifyError(parsed.error).replace(/\s*\n\s*/g, " "));
      frame = parsed.data;
    } catch (err) {
      const cause = (err as Error).message;
      return send({
        id: null,
        ok: false,
        problem: { source: "bridge", title: "bad frame", cause },
      });
    }
    if ("cancel" in frame) return streams.get(frame.cancel)?.abort();
    const { id } = frame;
    const end = (outcome: { result: unknown } | { error: unknown }) => send(ending(id, outcome));
    if ("call" in frame) {
      client.call(frame.call, frame.payload).then(
        (result) => end({ result }),
        (error: unknown) => end({ error }),
      );
      return;
    }
    if (streams.has(id))
      return end({
        error: new BridgeError({ source: "bridge", title: `stream ${id} is already running` }),
      });
    const cancel = new AbortController();
    streams.set(id, cancel);
    client
      .stream(frame.stream, frame.payload, (chunk) => send({ id, chunk }), cancel.signal)
      .then(
        (result) => end({ result }),
        (error: unknown) => end({ error }),
      )
      .finally(() => streams.delete(id));
  });
}
