/**
 * One MCP server as the engine runs it: started on first need, its tools listed (again when it
 * says they changed), calls made, and after an unexpected exit — or, over HTTP, once requests
 * show the server gone — restarted with exponential backoff (a server that keeps dying right
 * after starting gives up after a few attempts, as "failed", until someone asks again).
 */
import { existsSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { getDefaultEnvironment } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation";
import {
  LoggingMessageNotificationSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { APP_VERSION } from "../core/version.ts";
import { ToolCallChannel, type CallOptions } from "./call-channel.ts";
import type { McpServerSpec } from "./config.ts";
import { describeError, isConnectionLost } from "./connection-lost.ts";
import { listAllTools, type McpToolInfo } from "./list-tools.ts";
import { ServerLog } from "./server-log.ts";
import { StdioTransport, type StdioParams } from "./stdio-transport.ts";

const STDERR_HINT_LINES = 3;

/**
 * The SDK's Ajv validator, built when a tool first has an output schema to check: building one
 * costs several milliseconds per server, paid by every server at start when built up front.
 */
function lazyValidator(): jsonSchemaValidator {
  let ajv: AjvJsonSchemaValidator | undefined;
  return { getValidator: (schema) => (ajv ??= new AjvJsonSchemaValidator()).getValidator(schema) };
}

export type McpStatus = "stopped" | "starting" | "running" | "restarting" | "failed" | "disabled";

export interface Backoff {
  baseMs: number;
  maxMs: number;
  /** Restarts in a row (each dying within `stableMs`) before giving up as "failed". */
  maxAttempts: number;
  /** Up this long, a server's next crash counts as the first again. */
  stableMs: number;
}

export const DEFAULT_BACKOFF: Backoff = {
  baseMs: 500,
  maxMs: 30_000,
  maxAttempts: 5,
  stableMs: 30_000,
};

export interface ConnectionOptions {
  backoff?: Partial<Backoff>;
  connectTimeoutMs?: number;
  /** Status or tools changed (listings, the app's status event, the tool registry). */
  onChange(conn: McpConnection): void;
}

export class McpConnection {
  readonly spec: McpServerSpec;
  status: McpStatus;
  /** Why it is failed or restarting (one line), else undefined. */
  error: string | undefined;
  tools: McpToolInfo[] = [];
  /** Restarts after crashes since the engine started (listings show it). */
  restarts = 0;
  /** The server offers resources (its `resources` capability). */
  hasResources = false;
  /** What the server said lately (stderr, its log messages). */
  readonly log = new ServerLog();
  private client: Client | null = null;
  /** tools/call for the running client (see call-channel.ts). */
  private channel: ToolCallChannel | null = null;
  /** A liveness check of an HTTP server is under way. */
  private probing = false;
  /** The client still connecting (stop() closes it: a hung start must not outlive the session). */
  private connecting: Client | null = null;
  private pending: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failures = 0;
  private connectedAt = 0;
  private stderrTail = "";
  private readonly backoff: Backoff;
  private readonly opts: ConnectionOptions;

  constructor(spec: McpServerSpec, opts: ConnectionOptions) {
    this.spec = spec;
    this.opts = opts;
    this.backoff = { ...DEFAULT_BACKOFF, ...opts.backoff };
    this.status = spec.disabled ? "disabled" : "stopped";
  }

  /** Running (started now if needed); throws with the reason when it cannot be. */
  async ready(): Promise<void> {
    if (this.status === "running") return;
    if (this.status === "disabled")
      throw new Error(`MCP server "${this.spec.name}" is disabled; enable it to use its tools`);
    if (!this.pending) {
      this.clearTimer();
      this.pending = this.connect();
    }
    await this.pending;
    // connect() moved the status on while we waited.
    if ((this.status as McpStatus) !== "running")
      throw new Error(
        `MCP server "${this.spec.name}" is not running: ${this.error ?? this.status}`,
      );
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    opts: CallOptions = {},
  ): Promise<CallToolResult> {
    // The hot path: no extra await when it is already running.
    if (this.status !== "running" || !this.channel) await this.ready();
    const client = this.client!;
    try {
      return await this.channel!.call(tool, args, opts);
    } catch (err) {
      if (isConnectionLost(err)) this.lost(client, describeError(err));
      throw new Error(describeError(err), { cause: err });
    }
  }

  /** Another request through the SDK's Client (resources), with the same lost-server handling. */
  async request<T>(fn: (client: Client) => Promise<T>): Promise<T> {
    if (this.status !== "running" || !this.client) await this.ready();
    const client = this.client!;
    try {
      return await fn(client);
    } catch (err) {
      if (isConnectionLost(err)) this.lost(client, describeError(err));
      throw new Error(describeError(err), { cause: err });
    }
  }

  async stop(status: McpStatus = "stopped"): Promise<void> {
    this.clearTimer();
    const client = this.client;
    const starting = this.connecting;
    this.channel?.close();
    this.channel = null;
    this.client = null;
    this.connecting = null;
    this.set(status, undefined);
    await Promise.all([client?.close().catch(() => {}), starting?.close().catch(() => {})]);
  }

  async restart(): Promise<void> {
    await this.stop();
    this.failures = 0;
    await this.ready();
  }

  async disable(): Promise<void> {
    await this.stop("disabled");
  }

  enable(): void {
    if (this.status === "disabled") this.set("stopped", undefined);
  }

  private async connect(): Promise<void> {
    this.set(this.status === "restarting" ? "restarting" : "starting", this.error);
    const client = new Client(
      { name: "islet", version: APP_VERSION },
      { jsonSchemaValidator: lazyValidator() },
    );
    // A server that dies before answering (npx asking for -y, a missing module) fails the start
    // at once with its exit code, not after the request's time limit.
    let exitedEarly: (err: Error) => void = () => {};
    const exited = new Promise<never>((_, reject) => (exitedEarly = reject));
    exited.catch(() => {});
    const transport = this.transport((code, signal) =>
      exitedEarly(
        new Error(`exited ${signal ? `on ${signal}` : `with code ${code}`} before answering`),
      ),
    );
    this.connecting = client;
    try {
      await Promise.race([
        exited,
        (async () => {
          await client.connect(transport, { timeout: this.opts.connectTimeoutMs ?? 30_000 });
          this.tools = await listAllTools(client);
        })(),
      ]);
    } catch (err) {
      await client.close().catch(() => {});
      if (this.connecting !== client) return; // stopped while starting
      this.connecting = null;
      this.pending = null;
      const missing = missingCommand(err, this.spec);
      // No restart brings a program that is not installed: say which one, once.
      if (missing) {
        this.log.add(missing);
        this.set("failed", missing);
      } else this.crashed(`could not start: ${describeError(err)}${this.stderrHint()}`);
      return;
    }
    if (this.connecting !== client) {
      await client.close().catch(() => {}); // stopped while starting
      return;
    }
    this.connecting = null;
    this.client = client;
    this.channel = new ToolCallChannel(transport);
    this.hasResources = Boolean(client.getServerCapabilities()?.resources);
    this.connectedAt = Date.now();
    client.onclose = () => {
      if (this.client !== client) return; // stopped on purpose
      this.client = null;
      this.channel = null;
      this.crashed(`exited${this.stderrHint()}`);
    };
    client.onerror = (err) => {
      if (this.client !== client) return;
      this.log.add(`error: ${describeError(err)}`);
      // Over HTTP the first sign of a server gone is often its event stream failing.
      if (this.spec.transport === "http") this.probe(client);
    };
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      if (this.client !== client) return;
      this.log.add("tools changed: listing them again");
      this.tools = await listAllTools(client).catch(() => this.tools);
      if (this.client === client) this.opts.onChange(this);
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      this.log.message(n.params);
    });
    this.pending = null;
    this.set("running", undefined);
  }

  private transport(onExit?: StdioParams["onExit"]): Transport {
    const spec = this.spec;
    if (spec.transport === "http") {
      return new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers: spec.headers },
      });
    }
    this.stderrTail = "";
    return new StdioTransport({
      command: spec.command,
      args: spec.args,
      env: { ...getDefaultEnvironment(), ...spec.env },
      cwd: spec.cwd,
      onStderr: (text) => {
        this.stderrTail = (this.stderrTail + text).slice(-2000);
        this.log.stderr(text);
      },
      onExit,
    });
  }

  /** Asks a server that reported an error whether it is still there. */
  private probe(client: Client): void {
    if (this.probing) return;
    this.probing = true;
    client
      .ping({ timeout: 10_000 })
      .catch((err: unknown) => {
        if (isConnectionLost(err)) this.lost(client, describeError(err));
      })
      .finally(() => {
        this.probing = false;
      });
  }

  /** Requests show the server gone (HTTP), though no process exit told us: same as a crash. */
  private lost(client: Client, reason: string): void {
    if (this.client !== client) return; // already handled, or stopped on purpose
    this.client = null;
    this.channel?.close();
    this.channel = null;
    void client.close().catch(() => {});
    this.crashed(`connection lost: ${reason}`);
  }

  /** Died or could not start: try again after the backoff, or give up as "failed". */
  private crashed(reason: string): void {
    this.log.add(reason);
    if (this.connectedAt > 0 && Date.now() - this.connectedAt >= this.backoff.stableMs)
      this.failures = 0;
    this.failures += 1;
    if (this.failures > this.backoff.maxAttempts) {
      this.set("failed", `${reason} (gave up after ${this.backoff.maxAttempts} restarts)`);
      return;
    }
    const delay = Math.min(this.backoff.baseMs * 2 ** (this.failures - 1), this.backoff.maxMs);
    this.set("restarting", `${reason}; restarting in ${Math.round(delay)} ms`);
    this.pending = new Promise<void>((resolve) => {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.restarts += 1;
        this.pending = null;
        this.pending = this.connect();
        void this.pending.then(resolve);
      }, delay);
      // A waiting restart does not keep a finished CLI run alive.
      this.timer.unref();
    });
  }

  /** The last lines of stderr, where a dying server says why. */
  private stderrHint(): string {
    const lines = this.stderrTail
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean)
      .slice(-STDERR_HINT_LINES)
      .map((l) => l.slice(0, 200));
    return lines.length > 0 ? ` (stderr: ${lines.join(" | ")})` : "";
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = null;
  }

  private set(status: McpStatus, error: string | undefined): void {
    this.status = status;
    this.error = error;
    this.opts.onChange(this);
  }
}

/** The line for a stdio server whose program could not be found (spawn's ENOENT), else undefined. */
function missingCommand(err: unknown, spec: McpServerSpec): string | undefined {
  if (spec.transport !== "stdio") return undefined;
  const e = err as NodeJS.ErrnoException | undefined;
  const spawnMissing =
    e?.code === "ENOENT" && (e.syscall?.startsWith("spawn") || /spawn \S+ ENOENT/.test(e.message));
  if (!spawnMissing) return undefined;
  // spawn says ENOENT for a missing working folder too.
  if (spec.cwd !== undefined && !existsSync(spec.cwd))
    return `could not start: its working folder ${spec.cwd} does not exist (cwd in its config; Islet does not restart it)`;
  return `could not start: command "${spec.command}" was not found: install it or put it on PATH (Islet does not restart it)`;
}
