/**
 * The bridge over a loopback WebSocket (`islet serve`): frames from protocol.ts, payloads checked
 * by the service exactly as over Electron IPC. The upgrade is refused unless it carries the
 * session's token and comes from the page this server served (Origin and Host checks stop other
 * sites and DNS-rebinding pages from driving the engine).
 */
import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { z } from "zod";
import { BRIDGE_PATH, CallFrame, type ServerFrame } from "./protocol.ts";
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

function serve(ws: WebSocket, service: BridgeService): void {
  const send = (frame: ServerFrame) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  const unsubscribe = service.subscribe((event, payload) => send({ event, payload }));
  ws.on("close", unsubscribe);
  ws.on("error", () => ws.terminate());
  ws.on("message", (data, isBinary) => {
    let frame: CallFrame;
    try {
      if (isBinary) throw new Error("binary frames are not part of the protocol");
      const parsed = CallFrame.safeParse(JSON.parse(data.toString()));
      if (!parsed.success) throw new Error(z.prettifyError(parsed.error));
      frame = parsed.data;
    } catch (err) {
      return send({ id: null, ok: false, error: `bad frame: ${(err as Error).message}` });
    }
    service.call(frame.call, frame.payload).then(
      (result) => send({ id: frame.id, ok: true, result }),
      (err: unknown) =>
        send({ id: frame.id, ok: false, error: err instanceof Error ? err.message : String(err) }),
    );
  });
}
