/**
 * A minimal Language Server Protocol client over stdio, enough for what Claude Code uses a
 * plugin's language server for: after a file is written, the server's diagnostics for it. It
 * initializes once, opens a file on first use (its full text on each change after) and waits a
 * short while for `textDocument/publishDiagnostics` about that file.
 */
import type { ChildProcess } from "node:child_process";
import { pathToFileURL } from "node:url";
import spawn from "cross-spawn";

export interface LspDiagnostic {
  line: number;
  character: number;
  severity: "error" | "warning" | "info" | "hint";
  message: string;
}

interface Message {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { message?: string };
}

export interface LspStart {
  command: string;
  args: string[];
  env?: Record<string, string>;
  rootDir: string;
}

const SEVERITY = ["error", "error", "warning", "info", "hint"] as const;

export class LspClient {
  private child: ChildProcess | null = null;
  private buffer = Buffer.alloc(0);
  private nextId = 1;
  private readonly answers = new Map<number, (m: Message) => void>();
  private readonly versions = new Map<string, number>();
  private readonly waiting = new Map<string, (d: LspDiagnostic[]) => void>();
  private started: Promise<void> | null = null;
  private stderr = "";
  private exited: string | null = null;

  private readonly opts: LspStart;

  constructor(opts: LspStart) {
    this.opts = opts;
  }

  /** Starts it once; throws with its exit and last stderr line when it cannot start. */
  start(timeoutMs: number): Promise<void> {
    this.started ??= this.initialize(timeoutMs);
    return this.started;
  }

  /** The server's diagnostics for `file` after it has `text`; null when none came in time. */
  async diagnose(
    file: string,
    text: string,
    languageId: string,
    waitMs: number,
  ): Promise<LspDiagnostic[] | null> {
    const uri = pathToFileURL(file).href;
    const version = (this.versions.get(uri) ?? 0) + 1;
    this.versions.set(uri, version);
    const got = new Promise<LspDiagnostic[] | null>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(uri);
        resolve(null);
      }, waitMs);
      timer.unref();
      this.waiting.set(uri, (d) => {
        clearTimeout(timer);
        resolve(d);
      });
    });
    if (version === 1)
      this.notify("textDocument/didOpen", { textDocument: { uri, languageId, version, text } });
    else
      this.notify("textDocument/didChange", {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    this.notify("textDocument/didSave", { textDocument: { uri }, text });
    return got;
  }

  async close(): Promise<void> {
    const child = this.child;
    if (!child || this.exited) return;
    await Promise.race([
      this.request("shutdown", null).catch(() => {}),
      new Promise((r) => setTimeout(r, 1_000).unref()),
    ]);
    this.notify("exit", null);
    const gone = new Promise((r) => child.once("exit", r));
    await Promise.race([gone, new Promise((r) => setTimeout(r, 1_000).unref())]);
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }

  private async initialize(timeoutMs: number): Promise<void> {
    const child = spawn(this.opts.command, this.opts.args, {
      cwd: this.opts.rootDir,
      env: { ...process.env, ...this.opts.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    const failed = new Promise<never>((_, reject) => {
      child.once("error", (err) => reject(err));
      child.once("exit", (code, signal) => {
        this.exited = signal ? `on ${signal}` : `with code ${code}`;
        const last = this.stderr.trim().split("\n").at(-1);
        reject(new Error(`exited ${this.exited}${last ? ` (stderr: ${last})` : ""}`));
      });
    });
    failed.catch(() => {});
    child.stdout!.on("data", (chunk: Buffer) => this.receive(chunk));
    child.stderr!.setEncoding("utf8");
    child.stderr!.on("data", (t: string) => (this.stderr = (this.stderr + t).slice(-2000)));
    child.stdin!.on("error", () => {});
    const rootUri = pathToFileURL(this.opts.rootDir).href;
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`no answer in ${timeoutMs} ms`)), timeoutMs).unref(),
    );
    await Promise.race([
      failed,
      timeout,
      this.request("initialize", {
        processId: process.pid,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "workspace" }],
        capabilities: { textDocument: { publishDiagnostics: {}, synchronization: {} } },
      }),
    ]);
    this.notify("initialized", {});
  }

  private request(method: string, params: unknown): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.answers.set(id, (m) =>
        m.error ? reject(new Error(m.error.message)) : resolve(m.result),
      );
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }

  private notify(method: string, params: unknown): void {
    this.send({ jsonrpc: "2.0", method, params });
  }

  private send(message: Record<string, unknown>): void {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    this.child?.stdin?.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.child?.stdin?.write(body);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf("\r\n\r\n");
      if (end === -1) return;
      const length = /Content-Length: *(\d+)/i.exec(this.buffer.subarray(0, end).toString());
      if (!length) {
        this.buffer = this.buffer.subarray(end + 4);
        continue;
      }
      const size = Number(length[1]);
      if (this.buffer.length < end + 4 + size) return;
      const body = this.buffer.subarray(end + 4, end + 4 + size).toString("utf8");
      this.buffer = this.buffer.subarray(end + 4 + size);
      try {
        this.handle(JSON.parse(body) as Message);
      } catch {
        // A broken message from the server costs only itself.
      }
    }
  }

  private handle(m: Message): void {
    if (m.id !== undefined && m.method === undefined) {
      this.answers.get(m.id)?.(m);
      this.answers.delete(m.id);
      return;
    }
    // Requests from the server (configuration, capability registration): answered empty.
    if (m.id !== undefined) this.send({ jsonrpc: "2.0", id: m.id, result: null });
    if (m.method !== "textDocument/publishDiagnostics") return;
    const p = m.params as {
      uri: string;
      diagnostics: {
        range: { start: { line: number; character: number } };
        severity?: number;
        message: string;
      }[];
    };
    const resolve = this.waiting.get(p.uri);
    if (!resolve) return;
    this.waiting.delete(p.uri);
    resolve(
      p.diagnostics.map((d) => ({
        line: d.range.start.line + 1,
        character: d.range.start.character + 1,
        severity: SEVERITY[d.severity ?? 1] ?? "error",
        message: d.message,
      })),
    );
  }
}
