/**
 * Loopback HTTP server core for the fake model servers: request recording, a scripted response
 * queue, and a writer that cuts the stream at arbitrary bytes across separate TCP writes so the
 * client's incremental parsing is exercised the way a real network does.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptedResponse, WirePiece } from "./script.ts";
import { seededRandom } from "../../core/seeded-random.ts";

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Parsed JSON body (undefined when empty or not JSON). */
  body: unknown;
  raw: string;
  /** The client went away before the response finished (abort). */
  closedEarly: boolean;
}

export interface FakeServer {
  /** The base URL to configure the provider with. */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  /** Every request, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Only the chat requests. */
  readonly chatRequests: RecordedRequest[];
  /** Scripted responses not used yet. */
  readonly remaining: number;
  push(...responses: ScriptedResponse[]): void;
  close(): Promise<void>;
}

export interface Exchange {
  req: RecordedRequest;
  res: ServerResponse;
  /** Next scripted response (undefined when the script is used up). */
  next(): ScriptedResponse | undefined;
  json(status: number, body: unknown, headers?: Record<string, string>): void;
  /** Sends nothing at all (not even headers); resolves when the client leaves. */
  silence(): Promise<void>;
  /** Streams pieces, split at random bytes across writes; resolves when done or the client left. */
  stream(
    contentType: string,
    pieces: WirePiece[],
    opts?: { fast?: boolean; hang?: boolean; pauseMs?: number },
  ): Promise<void>;
}

export type Handler = (ex: Exchange) => void | Promise<void>;

export interface FakeServerSetup {
  /** Path prefix of `url` ("/v1" for OpenAI). */
  basePath: string;
  chatPath: string;
  /** Routes by "METHOD /path"; a trailing "*" matches any suffix. */
  routes: Record<string, Handler>;
  script: ScriptedResponse[];
  /** Seed for the byte-split positions, so a failing split is reproducible. */
  seed?: number;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function lowerHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

function route(routes: Record<string, Handler>, method: string, path: string): Handler | undefined {
  const exact = routes[`${method} ${path}`];
  if (exact) return exact;
  for (const [key, handler] of Object.entries(routes)) {
    if (key.endsWith("*") && `${method} ${path}`.startsWith(key.slice(0, -1))) return handler;
  }
  return undefined;
}

export async function startFakeServer(setup: FakeServerSetup): Promise<FakeServer> {
  const script = [...setup.script];
  const requests: RecordedRequest[] = [];
  const random = seededRandom(setup.seed ?? 42);

  const server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(parts).toString("utf8");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const rec: RecordedRequest = {
        method: req.method ?? "GET",
        path: url.pathname,
        headers: lowerHeaders(req),
        body,
        raw,
        closedEarly: false,
      };
      requests.push(rec);
      let finished = false;
      res.on("close", () => {
        if (!finished) rec.closedEarly = true;
      });
      res.on("finish", () => (finished = true));
      const ex: Exchange = {
        req: rec,
        res,
        next: () => script.shift(),
        json(status, value, headers = {}) {
          res.writeHead(status, { "content-type": "application/json", ...headers });
          res.end(typeof value === "string" ? value : JSON.stringify(value));
        },
        silence: () => new Promise<void>((resolve) => res.once("close", () => resolve())),
        async stream(contentType, pieces, opts = {}) {
          res.writeHead(200, { "content-type": contentType, "cache-control": "no-cache" });
          res.flushHeaders();
          const gone = () => res.destroyed || res.writableEnded;
          if (opts.fast) {
            await writeFast(res, pieces);
          } else if (opts.pauseMs !== undefined) {
            for (const piece of pieces) {
              if (gone()) break;
              res.write(piece);
              await new Promise((resolve) => setTimeout(resolve, opts.pauseMs));
            }
          } else {
            const bytes = Buffer.from(pieces.join(""), "utf8");
            let at = 0;
            while (at < bytes.length && !gone()) {
              // 1..48 bytes: cuts inside JSON, inside UTF-8 sequences, between "\r" and "\n".
              const size = 1 + Math.floor(random() * 48);
              res.write(bytes.subarray(at, at + size));
              at += size;
              await tick();
            }
          }
          if (opts.hang) {
            await new Promise<void>((resolve) => res.once("close", () => resolve()));
            return;
          }
          if (!gone()) res.end();
        },
      };
      const handler = route(setup.routes, rec.method, rec.path);
      if (!handler) {
        ex.json(404, { error: `fake server: no route for ${rec.method} ${rec.path}` });
        return;
      }
      Promise.resolve(handler(ex)).catch((err: unknown) => {
        if (!res.headersSent) ex.json(500, { error: `fake server: ${String(err)}` });
        else res.destroy();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: origin + setup.basePath,
    origin,
    port,
    requests,
    get chatRequests() {
      return requests.filter((r) => r.path === setup.chatPath);
    },
    get remaining() {
      return script.length;
    },
    push: (...responses) => void script.push(...responses),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const batches = new WeakMap<WirePiece[], Buffer[]>();

/** Benchmark path: big writes (joined once per pieces array), honouring backpressure. */
async function writeFast(res: ServerResponse, pieces: WirePiece[]): Promise<void> {
  let buffers = batches.get(pieces);
  if (!buffers) {
    buffers = [];
    for (let i = 0; i < pieces.length; i += 2048)
      buffers.push(Buffer.from(pieces.slice(i, i + 2048).join("")));
    batches.set(pieces, buffers);
  }
  for (const b of buffers) {
    if (res.destroyed) return;
    if (!res.write(b)) await drainOrClose(res);
  }
}

function drainOrClose(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.on("drain", done);
    res.on("close", done);
  });
}
