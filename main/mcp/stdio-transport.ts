/**
 * The stdio transport for MCP servers: a child process, newline-delimited JSON-RPC both ways. It
 * replaces the SDK's StdioClientTransport, which measured a third slower per round trip than
 * writing and reading the lines by hand (bench/mcp-bench.ts), mostly in its buffer copies and a
 * full schema pass over every message. Here answers get an envelope check only: whoever asked
 * checks the result (the SDK's Client with its schema, ToolCallChannel with CallToolResultSchema),
 * so each result is checked once. Requests and notifications from the server get the SDK's full
 * check, as before. Stopping is the SDK's: close stdin, then SIGTERM, then SIGKILL.
 */
import type { ChildProcess } from "node:child_process";
// As the SDK's transport: on Windows, `npx` and other .cmd shims start without a shell.
import spawn from "cross-spawn";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export interface StdioParams {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** What the server writes to stderr, as it comes. */
  onStderr?(text: string): void;
  /** The process ended (its stderr read to the end, or a moment after exit if a child holds it). */
  onExit?(code: number | null, signal: NodeJS.Signals | null): void;
}

/** A process's pipes can stay open after it exits (a child of `npx` holding them): wait this long. */
const EXIT_DRAIN_MS = 250;

/** A line longer than this without a newline is a broken server, not a message. */
const MAX_LINE_CHARS = 10 * 1024 * 1024;
const STOP_WAIT_MS = 2_000;

export class StdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport["onmessage"];
  private readonly params: StdioParams;
  private child: ChildProcess | undefined;
  private partial = "";

  constructor(params: StdioParams) {
    this.params = params;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    if (this.child) throw new Error("stdio transport already started");
    const { command, args, env, cwd } = this.params;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env,
        cwd,
        stdio: ["pipe", "pipe", "pipe"],
        shell: false,
        windowsHide: true,
      });
      this.child = child;
      child.once("spawn", () => resolve());
      child.on("error", (err) => {
        reject(err);
        this.onerror?.(err);
      });
      child.once("close", () => {
        this.child = undefined;
        this.onclose?.();
      });
      child.once("exit", (code, signal) => {
        let told = false;
        const tell = () => {
          if (told) return;
          told = true;
          this.params.onExit?.(code, signal);
        };
        child.once("close", tell);
        setTimeout(tell, EXIT_DRAIN_MS).unref();
      });
      child.stdin!.on("error", (err) => this.onerror?.(err));
      child.stdout!.setEncoding("utf8");
      child.stdout!.on("data", (chunk: string) => this.receive(chunk));
      child.stderr!.setEncoding("utf8");
      child.stderr!.on("data", (text: string) => this.params.onStderr?.(text));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin) return Promise.reject(new Error("Not connected"));
    if (stdin.write(`${JSON.stringify(message)}\n`)) return Promise.resolve();
    return new Promise((resolve) => stdin.once("drain", resolve));
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));
    const wait = () =>
      Promise.race([closed, new Promise((r) => setTimeout(r, STOP_WAIT_MS).unref())]);
    child.stdin?.end();
    await wait();
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await wait();
    }
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    this.partial = "";
  }

  private receive(chunk: string): void {
    let text = this.partial + chunk;
    let nl = text.indexOf("\n");
    while (nl !== -1) {
      const line = text.slice(0, nl);
      text = text.slice(nl + 1);
      if (line.trim()) this.deliver(line);
      nl = text.indexOf("\n");
    }
    if (text.length > MAX_LINE_CHARS) {
      this.onerror?.(new Error(`a message of over ${MAX_LINE_CHARS} characters without a newline`));
      text = "";
    }
    this.partial = text;
  }

  private deliver(line: string): void {
    let message: JSONRPCMessage;
    try {
      message = checkEnvelope(JSON.parse(line));
    } catch (err) {
      this.onerror?.(
        new Error(`unreadable message from the server: ${(err as Error).message.split("\n")[0]}`),
      );
      return;
    }
    this.onmessage?.(message);
  }
}

/** Answers: the envelope only (the asker checks the result). Anything else: the SDK's schema. */
function checkEnvelope(value: unknown): JSONRPCMessage {
  if (value !== null && typeof value === "object" && !("method" in value) && "id" in value) {
    const msg = value as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
    const idOk = typeof msg.id === "string" || typeof msg.id === "number";
    if (msg.jsonrpc === "2.0" && idOk) {
      if (typeof msg.result === "object" && msg.result !== null && !Array.isArray(msg.result))
        return value as JSONRPCMessage;
      const err = msg.error as { code?: unknown; message?: unknown } | undefined;
      if (err && typeof err.code === "number" && typeof err.message === "string")
        return value as JSONRPCMessage;
    }
  }
  return JSONRPCMessageSchema.parse(value);
}
