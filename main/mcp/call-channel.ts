/**
 * `tools/call` sent straight over a connected SDK transport, beside the SDK's Client (which keeps
 * initialize, listings and notifications). The Client's request path costs an MCP tool call a
 * fifth of a stdio round trip again (its per-request bookkeeping: a timer per request, a second
 * pass over the result after the transport's); here a call is written first, then booked: one map
 * entry with its deadline (one shared timer sweeps them), one abort listener (removed when the
 * call ends, which the SDK never does) and one check of the result. Our ids are strings
 * ("islet-N") and the SDK's are numbers, so the two never answer each other's calls.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CallToolResultSchema,
  type CallToolResult,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";

/** The SDK's own default for a request without a timeout. */
const DEFAULT_TIMEOUT_MS = 60_000;

export interface CallOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The connection is gone (closed, process exited): the call never got its answer. */
export class ChannelClosedError extends Error {
  constructor() {
    super("connection closed before the server answered");
    this.name = "ChannelClosedError";
  }
}

interface Waiting {
  resolve(result: CallToolResult): void;
  /** Fails the call and tells the server to stop (a timeout, an abort). */
  cancel(err: Error): void;
  reject(err: Error): void;
  /** performance.now() past which it times out, and why. */
  deadline: number;
  timeoutText: string;
  /** Removes the abort listener. */
  done(): void;
}

export class ToolCallChannel {
  private readonly transport: Transport;
  private readonly waiting = new Map<string, Waiting>();
  private next = 0;
  private closed = false;
  /** The one timer for every call's deadline, set for the earliest it knows of. */
  private sweep: NodeJS.Timeout | null = null;
  private sweepAt = Infinity;

  /** Call once the Client is connected: it wraps the handlers the Client installed. */
  constructor(transport: Transport) {
    this.transport = transport;
    const inner = transport.onmessage;
    transport.onmessage = <T extends JSONRPCMessage>(
      message: T,
      extra?: Parameters<NonNullable<Transport["onmessage"]>>[1],
    ) => {
      if (!this.take(message)) inner?.(message, extra);
    };
    const innerClose = transport.onclose;
    transport.onclose = () => {
      this.close();
      innerClose?.();
    };
  }

  call(
    name: string,
    args: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<CallToolResult> {
    const { signal } = opts;
    if (this.closed) return Promise.reject(new ChannelClosedError());
    if (signal?.aborted) return Promise.reject(abortError(signal));
    const id = `islet-${++this.next}`;
    const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = performance.now() + timeoutMs;
    // Written before the bookkeeping, so the server starts while we book: an answer can only
    // arrive in a later turn of the event loop, after the entry below exists.
    const sent = this.transport.send({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name, arguments: args },
    });
    return new Promise<CallToolResult>((resolve, reject) => {
      const onAbort = () => cancel(abortError(signal!));
      const done = () => signal?.removeEventListener("abort", onAbort);
      const cancel = (err: Error) => {
        if (!this.waiting.delete(id)) return;
        done();
        // The server may stop the work; its late answer, if any, is dropped by take().
        this.transport
          .send({
            jsonrpc: "2.0",
            method: "notifications/cancelled",
            params: { requestId: id, reason: err.message },
          })
          .catch(() => {});
        reject(err);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      const timeoutText = `${name} gave no answer within ${timeoutMs} ms`;
      this.waiting.set(id, { resolve, reject, cancel, deadline, timeoutText, done });
      this.arm(deadline);
      sent.catch((err: unknown) => {
        if (!this.waiting.delete(id)) return;
        done();
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
  }

  /** Fails every call still waiting (the transport closed, or the connection is dropped). */
  close(): void {
    this.closed = true;
    if (this.sweep) clearTimeout(this.sweep);
    this.sweep = null;
    const all = [...this.waiting.values()];
    this.waiting.clear();
    for (const w of all) {
      w.done();
      w.reject(new ChannelClosedError());
    }
  }

  private arm(deadline: number): void {
    if (deadline >= this.sweepAt || this.closed) return;
    if (this.sweep) clearTimeout(this.sweep);
    this.sweepAt = deadline;
    this.sweep = setTimeout(() => this.expire(), Math.max(0, deadline - performance.now()));
  }

  /** Times out the calls past their deadline; sets the timer for the next one still waiting. */
  private expire(): void {
    this.sweep = null;
    this.sweepAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const w of [...this.waiting.values()]) {
      if (w.deadline <= now) w.cancel(new Error(w.timeoutText));
      else next = Math.min(next, w.deadline);
    }
    if (next < Infinity) this.arm(next);
  }

  /** Our answer: settles its call and is not passed on to the Client. */
  private take(message: JSONRPCMessage): boolean {
    if (!("id" in message) || typeof message.id !== "string" || "method" in message) return false;
    const w = this.waiting.get(message.id);
    if (!w) return message.id.startsWith("islet-"); // a late answer to a cancelled call
    this.waiting.delete(message.id);
    w.done();
    if ("error" in message) {
      const { code, message: text } = message.error;
      w.reject(new Error(`${firstLine(text)} (MCP error ${code})`));
      return true;
    }
    // The transport checked the JSON-RPC envelope; this is the one check of the result itself.
    const parsed = CallToolResultSchema.safeParse(message.result);
    if (parsed.success) w.resolve(parsed.data);
    else {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? issue.path.join(".") : "result";
      w.reject(
        new Error(`the server answered with a malformed result: ${where}: ${issue?.message}`),
      );
    }
    return true;
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new Error(reason === undefined ? "aborted" : `aborted: ${String(reason)}`);
}

function firstLine(text: string): string {
  return text.split("\n")[0];
}
