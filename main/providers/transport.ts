/**
 * One HTTP request over node:http(s) with a watchdog for each stage: connect, first byte, idle.
 * Not fetch: Node's fetch cannot limit the connect stage without an undici dispatcher, which
 * Node does not expose, and its own header/body limits are 300 s each.
 */
import http, { type ClientRequest, type IncomingMessage } from "node:http";
import https from "node:https";
import type { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { StallTimeout, type Timeouts } from "./timeouts.ts";
import type { TimeoutKind } from "./types.ts";

export interface TimedRequest {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
  /** The user's stop: the request is destroyed with an AbortError, whatever stage it is in. */
  signal?: AbortSignal;
  timeouts: Timeouts;
}

export interface TimedResponse {
  status: number;
  headers: Headers;
  /** The body, once, chunk by chunk; throws StallTimeout when the server goes quiet too long. */
  body: AsyncIterable<Uint8Array>;
  /**
   * The answer has begun: the first-token limit ends and the idle limit starts. Until then bytes
   * (a role chunk, pings) do not reset the first-token countdown. Without it, the whole body is
   * read under the first-token limit.
   */
  answering(): void;
}

/** One timer re-armed per stage; it never fires while the reader is busy with a chunk. */
class Watchdog {
  private timer: NodeJS.Timeout | undefined;
  private kind: TimeoutKind = "connect";
  private ms = 0;
  /** The reader holds a chunk: its own time is not the server's silence. */
  holding = false;
  private readonly onFire: (t: StallTimeout) => void;

  constructor(onFire: (t: StallTimeout) => void) {
    this.onFire = onFire;
  }

  arm(kind: TimeoutKind, ms: number): void {
    this.kind = kind;
    this.ms = ms;
    clearTimeout(this.timer);
    this.timer = setTimeout(this.fire, ms);
  }

  get idling(): boolean {
    return this.kind === "idle" && this.timer !== undefined;
  }

  /** Restarts the current stage's countdown (cheaper than re-arming, per chunk). */
  touch(): void {
    this.timer?.refresh();
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private readonly fire = (): void => {
    if (this.holding) {
      this.timer?.refresh();
      return;
    }
    this.timer = undefined;
    this.onFire(new StallTimeout(this.kind, this.ms));
  };
}

function toHeaders(raw: IncomingMessage["headers"]): Headers {
  const h = new Headers();
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) h.append(k, one);
  }
  return h;
}

/** Once the answer has begun, each chunk restarts the idle countdown. */
async function* watchedBody(
  res: IncomingMessage,
  dog: Watchdog,
  stalled: () => StallTimeout | undefined,
): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      if (dog.idling) dog.touch();
      dog.holding = true;
      yield chunk;
      dog.holding = false;
      if (dog.idling) dog.touch();
    }
  } catch (err) {
    throw stalled() ?? err;
  } finally {
    dog.stop();
    if (!res.complete) res.destroy();
  }
}

/** Resolves with the response once its headers arrive; the watchdog then guards the body. */
export function timedRequest(r: TimedRequest): Promise<TimedResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(r.url);
    const headers: Record<string, string> = { "user-agent": "islet", ...r.headers };
    // Encoded once: a request with a marketplace's extensions is hundreds of kilobytes, and
    // measuring the text, then writing it, would encode it twice.
    const body = r.body === undefined ? undefined : Buffer.from(r.body);
    if (body !== undefined) headers["content-length"] = String(body.length);
    const client = url.protocol === "https:" ? https : http;
    let stalled: StallTimeout | undefined;
    let response: IncomingMessage | undefined;
    let req: ClientRequest | undefined = undefined;
    const dog = new Watchdog((t) => {
      stalled = t;
      response?.destroy(t);
      req?.destroy(t);
    });
    try {
      req = client.request(url, { method: r.method, headers, signal: r.signal });
    } catch (err) {
      reject(err);
      return;
    }
    const started = req;
    started.on("error", (err) => {
      dog.stop();
      reject(stalled ?? err);
    });
    // Ends every stage: the answer completed, the socket closed, or the request was destroyed.
    started.once("close", () => dog.stop());
    started.once("socket", (socket: Socket) => {
      if (started.reusedSocket) return dog.arm("first_token", r.timeouts.firstTokenMs);
      dog.arm("connect", r.timeouts.connectMs);
      const connected = socket instanceof TLSSocket ? "secureConnect" : "connect";
      socket.once(connected, () => dog.arm("first_token", r.timeouts.firstTokenMs));
    });
    started.once("response", (res) => {
      response = res;
      // Errors reach the reader through its iterator; this keeps an unread body from crashing.
      res.on("error", () => {});
      let answering = false;
      resolve({
        status: res.statusCode ?? 0,
        headers: toHeaders(res.headers),
        body: watchedBody(res, dog, () => stalled),
        answering: () => {
          if (answering || res.complete || res.destroyed) return;
          answering = true;
          dog.arm("idle", r.timeouts.idleMs);
        },
      });
    });
    started.end(body);
  });
}
