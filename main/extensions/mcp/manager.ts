/**
 * Runs the MCP servers the engine's extensions contributed (engine.extensions.mcpServers): one
 * connection per serving definition, started lazily (first turn, `islet mcp list`, a call), its
 * tools registered as `mcp__<server>__<tool>` while it is enabled, stopped when its contribution
 * goes away or the engine closes. Names two servers would share are refused for both
 * (tool-names.ts), and a tool whose description or schema changes is reported.
 */
import type { Disposable } from "../../lifecycle/disposable.ts";
import type { McpServerContribution, McpServers } from "../../contributions/mcp-servers.ts";
import type { ScopedRegistrar } from "../../contributions/registrar.ts";
import { McpConnection, type Backoff, type McpStatus } from "../../mcp/connection.ts";
import type { McpDisabledStore } from "../../mcp/disabled-store.ts";
import type { McpSlowStarts } from "../../mcp/slow-starts.ts";
import { resourceTools } from "../../mcp/resource-tools.ts";
import type { McpToolInfo } from "../../mcp/list-tools.ts";
import { mcpTool, mcpToolName, serverLabel, toolDefinition } from "../../mcp/tool.ts";
import { formatProblem, type Problem } from "../../host/problem.ts";
import { startWithin } from "./start-within.ts";
import { assignToolNames, clashingServers } from "./tool-names.ts";

/** From a conversation opening to its MCP servers' start, and between two of them. */
const BACKGROUND_START_DELAY_MS = 200;
const BACKGROUND_START_GAP_MS = 20;

export interface McpServerStatus {
  name: string;
  source: string;
  transport: "stdio" | "http";
  status: McpStatus;
  error?: string;
  restarts: number;
  /** The registered names (`mcp__server__tool`) with their descriptions. */
  tools: { name: string; description: string }[];
}

export interface McpManagerOptions {
  warn(problem: Problem): void;
  backoff?: Partial<Backoff>;
  connectTimeoutMs?: number;
  /** Where the user's Disable is remembered (missing: for this run only). */
  disabledStore?: McpDisabledStore;
  /** Servers `startAllWithin` need not wait for (they did not start in time before). */
  slowStarts?: McpSlowStarts;
}

interface Running {
  contribution: McpServerContribution;
  conn: McpConnection;
  /** The tools registered for its current tool list; null when none are. */
  tools: ScopedRegistrar | null;
  toolsKey: string;
  /** The tools registered (those of its list not refused). */
  accepted: McpToolInfo[];
  /** Each listed tool's definition hash, to report a rewritten one. */
  definitions: Map<string, string>;
}

export class McpManager {
  private readonly servers: McpServers;
  private readonly registrar: ScopedRegistrar;
  private readonly opts: McpManagerOptions;
  private readonly running = new Map<string, Running>();
  /** Servers refused whole (their names clash), with the line saying why. */
  private readonly refused = new Map<string, { contribution: McpServerContribution }>();
  private readonly warned = new Set<string>();
  private readonly listeners = new Set<(status: McpServerStatus) => void>();
  private readonly subscription: Disposable;
  /** ListMcpResourcesTool and ReadMcpResourceTool, while some server offers resources. */
  private resourceScope: ScopedRegistrar | null = null;
  private closed = false;
  /** Servers startInBackground has yet to start, one per timer tick. */
  private readonly startQueue = new Set<Running>();
  private startTimer: NodeJS.Timeout | undefined;

  constructor(servers: McpServers, registrar: ScopedRegistrar, opts: McpManagerOptions) {
    this.servers = servers;
    this.registrar = registrar;
    this.opts = opts;
    this.subscription = servers.onChange(() => this.reconcile());
    this.reconcile();
  }

  /**
   * Starts every enabled server not yet started and waits for those starting (in parallel);
   * failures are reported, not thrown. For listings (`islet mcp list`, `islet tools`).
   */
  async startAll(): Promise<void> {
    await this.start([...this.running.keys()]);
  }

  /**
   * Starts every enabled server and waits for them at most `waitMs` (start-within.ts: not for
   * those that were still starting last time): resolves with the names of those still starting
   * then (they go on starting; their tools join once they run).
   */
  startAllWithin(waitMs: number): Promise<string[]> {
    return startWithin(waitMs, {
      conns: [...this.running.values()].map((r) => r.conn),
      startAll: () => this.startAll(),
      ...(this.opts.slowStarts ? { slowStarts: this.opts.slowStarts } : {}),
    });
  }

  /** Starts these servers (those not started yet) and waits for each one's first attempt. */
  async start(names: readonly string[]): Promise<void> {
    const waiting = names
      .flatMap((name) => {
        const r = this.running.get(name);
        return r ? [r] : [];
      })
      .filter((r) => r.conn.status === "stopped" || r.conn.status === "starting")
      .map((r) => r.conn.ready().catch((err: unknown) => this.notReady(r, err)));
    await Promise.all(waiting);
  }

  /**
   * Starts the servers not yet started without waiting for them: a turn goes on without a server
   * still starting (or failed); its tools join the registry, read at each model call, once it runs.
   */
  startInBackground(): void {
    if (this.closed) return;
    // Soon, not at once, and one server at a time: starting one spawns a process, which blocks
    // the event loop for a while in a big one, and a conversation's first request, sent as it
    // opens, should not wait behind them all. A person typing gives them far more time.
    for (const r of this.running.values()) if (r.conn.status === "stopped") this.startQueue.add(r);
    if (this.startTimer || this.startQueue.size === 0) return;
    const next = (): void => {
      this.startTimer = undefined;
      const [r] = this.startQueue;
      if (!r || this.closed) return;
      this.startQueue.delete(r);
      // Still served (not taken away meanwhile) and not started by someone else.
      if (r.conn.status === "stopped" && [...this.running.values()].includes(r))
        r.conn.ready().catch((err: unknown) => this.notReady(r, err));
      if (this.startQueue.size > 0) this.startTimer = setTimeout(next, BACKGROUND_START_GAP_MS);
    };
    this.startTimer = setTimeout(next, BACKGROUND_START_DELAY_MS);
  }

  /**
   * A server that could not start: its error names it ("MCP server "x" is not running: …"). Not
   * one stopped on purpose while it started (the manager closing, its definition gone).
   */
  private notReady(r: Running, err: unknown): void {
    if (this.closed || ![...this.running.values()].includes(r)) return;
    this.opts.warn({ source: `MCP server "${r.conn.spec.name}"`, title: (err as Error).message });
  }

  list(): McpServerStatus[] {
    const refused = [...this.refused].map(([name, { contribution }]) => ({
      name,
      source: contribution.source,
      transport: contribution.spec!.transport,
      status: "failed" as const,
      error: "refused: its name clashes with another server's",
      restarts: 0,
      tools: [],
    }));
    return [...[...this.running.values()].map((r) => this.describe(r)), ...refused];
  }

  status(name: string): McpServerStatus {
    return this.describe(this.entry(name));
  }

  /** The server's recent lines, oldest first: stderr, its log messages, lost connections. */
  log(name: string): string[] {
    return this.entry(name).conn.log.tail();
  }

  async restart(name: string): Promise<McpServerStatus> {
    const r = this.entry(name);
    if (r.conn.status === "disabled") await this.opts.disabledStore?.set(name, false);
    r.conn.enable();
    await r.conn.restart().catch(() => {});
    return this.describe(r);
  }

  async disable(name: string): Promise<McpServerStatus> {
    const r = this.entry(name);
    await r.conn.disable();
    await this.opts.disabledStore?.set(name, true);
    return this.describe(r);
  }

  async enable(name: string): Promise<McpServerStatus> {
    const r = this.entry(name);
    r.conn.enable();
    await this.opts.disabledStore?.set(name, false);
    await r.conn.ready().catch(() => {});
    return this.describe(r);
  }

  /** Every status change (the bridge's status event). */
  onStatus(listener: (status: McpServerStatus) => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.startTimer);
    this.startQueue.clear();
    this.subscription.dispose();
    const all = [...this.running.values()];
    this.running.clear();
    await Promise.all(all.map((r) => this.drop(r)));
    this.resourceScope?.dispose();
    this.resourceScope = null;
    this.registrar.dispose();
    await this.opts.slowStarts?.settled();
  }

  /** Follows the registry: a new or changed definition gets a connection, a removed one stops. */
  private reconcile(): void {
    if (this.closed) return;
    const stacks = this.servers.names().map((name) =>
      this.servers
        .contributions(name)
        .filter((c) => c.spec)
        .map((c) => ({ name, label: serverLabel(c.spec!), plugin: c.spec!.plugin ?? null })),
    );
    const clash = clashingServers(stacks);
    for (const line of clash.lines) this.warnOnce({ source: "MCP", title: line });
    this.refused.clear();
    const wanted = new Map<string, McpServerContribution>();
    for (const c of this.servers.list()) {
      if (!c.spec) continue;
      if (clash.names.has(c.name)) this.refused.set(c.name, { contribution: c });
      else wanted.set(c.name, c);
    }
    for (const [name, r] of this.running) {
      if (wanted.get(name) === r.contribution) continue;
      this.running.delete(name);
      void this.drop(r);
    }
    const off = wanted.size > 0 ? (this.opts.disabledStore?.disabled() ?? new Set()) : new Set();
    for (const [name, contribution] of wanted) {
      if (this.running.has(name)) continue;
      const spec = off.has(name) ? { ...contribution.spec!, disabled: true } : contribution.spec!;
      const r: Running = {
        contribution,
        conn: new McpConnection(spec, {
          backoff: this.opts.backoff,
          connectTimeoutMs: this.opts.connectTimeoutMs,
          onChange: () => this.changed(r),
        }),
        tools: null,
        toolsKey: "",
        accepted: [],
        definitions: new Map(),
      };
      this.running.set(name, r);
    }
    // Who may claim which names changed with the servers configured.
    this.syncTools();
  }

  private async drop(r: Running): Promise<void> {
    r.tools?.dispose();
    r.tools = null;
    r.toolsKey = "";
    r.accepted = [];
    this.syncResourceTools();
    await r.conn.stop();
  }

  /** Keeps the registered tools in step with the server's list; tells the listeners. */
  private changed(r: Running): void {
    if (this.running.get(r.contribution.name) !== r) return;
    this.noteRewrites(r);
    this.syncTools();
    this.syncResourceTools();
    const status = this.describe(r);
    for (const l of [...this.listeners]) l(status);
  }

  /** Serving its tools: not disabled nor stopped. */
  private serves(r: Running): boolean {
    return r.conn.status !== "disabled" && r.conn.status !== "stopped";
  }

  /** One line when a tool's description or schema is not what the server said before. */
  private noteRewrites(r: Running): void {
    if (!this.serves(r)) return;
    for (const info of r.conn.tools) {
      const now = toolDefinition(info);
      const was = r.definitions.get(info.name);
      r.definitions.set(info.name, now);
      if (was !== undefined && was !== now)
        this.opts.warn({
          source: serverLabel(r.conn.spec),
          title: `tool "${info.name}" (${mcpToolName(r.conn.spec.name, info.name)}) changed its description or input schema; an "always" given to it before asks again`,
        });
    }
  }

  /**
   * Registers each server's tools that keep their names (assignToolNames decides over all servers
   * at once): first takes back what changed, then adds, so a name passes cleanly between servers.
   */
  private syncTools(): void {
    if (this.closed) return;
    const all = [...this.running.values()];
    const listed = all
      .filter((r) => this.serves(r))
      .map((r) => ({
        name: r.conn.spec.name,
        label: serverLabel(r.conn.spec),
        tools: r.conn.tools,
      }));
    const configured = all.map((r) => ({
      name: r.conn.spec.name,
      label: serverLabel(r.conn.spec),
    }));
    const { accepted, refused } = assignToolNames(configured, listed);
    for (const line of refused) this.warnOnce({ source: "MCP", title: line });
    const changed: Running[] = [];
    for (const r of all) {
      const tools = this.serves(r) ? (accepted.get(r.conn.spec.name) ?? []) : [];
      const key = JSON.stringify(tools);
      if (key === r.toolsKey) continue;
      r.tools?.dispose();
      r.tools = null;
      r.toolsKey = key;
      r.accepted = tools;
      changed.push(r);
    }
    for (const r of changed) {
      if (r.accepted.length === 0) continue;
      const scope = this.registrar.scope();
      for (const info of r.accepted) {
        try {
          scope.tool(mcpTool(r.conn, info));
        } catch (err) {
          this.opts.warn({ source: serverLabel(r.conn.spec), title: (err as Error).message });
        }
      }
      r.tools = scope;
    }
  }

  /** A line said once per run, not at every reconcile. */
  private warnOnce(problem: Problem): void {
    const line = formatProblem(problem);
    if (this.warned.has(line)) return;
    this.warned.add(line);
    this.opts.warn(problem);
  }

  /** Servers offering resources now (running, or restarting: a call waits for them). */
  private resourceServers(): Map<string, McpConnection> {
    const out = new Map<string, McpConnection>();
    for (const [name, r] of this.running)
      if (r.conn.hasResources && (r.conn.status === "running" || r.conn.status === "restarting"))
        out.set(name, r.conn);
    return out;
  }

  private syncResourceTools(): void {
    const want = !this.closed && this.resourceServers().size > 0;
    if (want && !this.resourceScope) {
      const scope = this.registrar.scope();
      for (const tool of resourceTools(() => this.resourceServers())) scope.tool(tool);
      this.resourceScope = scope;
    } else if (!want && this.resourceScope) {
      this.resourceScope.dispose();
      this.resourceScope = null;
    }
  }

  private describe(r: Running): McpServerStatus {
    const { conn } = r;
    const tools = r.accepted.map((t) => ({
      name: mcpToolName(conn.spec.name, t.name),
      description: t.description,
    }));
    return {
      name: conn.spec.name,
      source: conn.spec.source,
      transport: conn.spec.transport,
      status: conn.status,
      ...(conn.error ? { error: conn.error } : {}),
      restarts: conn.restarts,
      tools,
    };
  }

  private entry(name: string): Running {
    const r = this.running.get(name);
    if (!r && this.refused.has(name))
      throw new Error(`MCP server "${name}" is refused: its name clashes with another server's`);
    if (!r)
      throw new Error(
        `unknown MCP server "${name}"; known: ${[...this.running.keys()].join(", ") || "none"}`,
      );
    return r;
  }
}
