/**
 * A Claude plugin's language servers at work: after a Write or Patch of a file whose extension a
 * server names, that server (started on first need, one per workspace) is given the file's text
 * and its diagnostics are added to the tool's result, so the model sees them as it would in
 * Claude Code. A server that cannot start, or says nothing in time, leaves the result as it was
 * (a failure to start is said once, as a warning).
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { HookHandler, HookRegistry, HookTiming } from "../../turn/hooks/types.ts";
import type { Problem } from "../../host/problem.ts";
import { LspClient, type LspDiagnostic } from "./lsp-client.ts";
import type { LspServerEntry } from "./lsp.ts";

const EDIT_TOOLS = new Set(["Write", "Patch"]);
const START_MS = 20_000;
const DIAGNOSTICS_WAIT_MS = 5_000;
const MAX_SHOWN = 30;

export class LspHookRegistry implements HookRegistry {
  private readonly clients = new Map<string, LspClient>();
  private readonly failed = new Map<string, string>();
  private readonly handler: HookHandler<"afterToolExecution">;

  private readonly plugin: string;
  private readonly servers: readonly LspServerEntry[];
  private readonly warn: (problem: Problem) => void;

  constructor(
    plugin: string,
    servers: readonly LspServerEntry[],
    warn: (problem: Problem) => void,
  ) {
    this.plugin = plugin;
    this.servers = servers;
    this.warn = warn;
    this.handler = {
      source: plugin,
      timing: "afterToolExecution",
      invoke: async (ctx) => {
        if (!EDIT_TOOLS.has(ctx.tool.name) || ctx.tool.error)
          return { status: "ok", result: undefined };
        const last = ctx.toolHistory[ctx.toolHistory.length - 1];
        const written = last?.name === ctx.tool.name ? last.args.path : undefined;
        if (typeof written !== "string") return { status: "ok", result: undefined };
        const file = path.resolve(ctx.workdir, written);
        const lines = await this.diagnostics(file, ctx.workdir);
        if (!lines) return { status: "ok", result: undefined };
        return { status: "ok", result: { output: `${ctx.tool.result}\n\n${lines}` } };
      },
    };
  }

  handlers<T extends HookTiming>(timing: T): readonly HookHandler<T>[] {
    const usable = this.servers.some((s) => !s.unusable);
    return (timing === "afterToolExecution" && usable
      ? [this.handler]
      : []) as unknown as readonly HookHandler<T>[];
  }

  /** The diagnostics block for `file`, or null (no server for it, none came, none found). */
  private async diagnostics(file: string, workdir: string): Promise<string | null> {
    const ext = path.extname(file);
    const server = this.servers.find((s) => !s.unusable && s.extensionToLanguage[ext]);
    if (!server || this.failed.has(server.name)) return null;
    const key = `${server.name}\n${workdir}`;
    let client = this.clients.get(key);
    if (!client) {
      client = new LspClient({
        command: server.command!,
        args: server.args,
        env: server.env,
        rootDir: workdir,
      });
      this.clients.set(key, client);
    }
    try {
      await client.start(START_MS);
    } catch (err) {
      const why = (err as Error).message;
      this.failed.set(server.name, why);
      this.warn({
        source: this.plugin,
        file: server.file,
        title: `LSP server "${server.name}" (${server.command}) could not start: ${why}`,
      });
      return null;
    }
    const text = await readFile(file, "utf8").catch(() => null);
    if (text === null) return null;
    const found = await client.diagnose(
      file,
      text,
      server.extensionToLanguage[ext],
      DIAGNOSTICS_WAIT_MS,
    );
    if (!found || found.length === 0) return null;
    return diagnosticsBlock(path.relative(workdir, file) || file, server.name, found);
  }

  /** Why each server that failed to start did (the plugin's parts list shows it). */
  failures(): ReadonlyMap<string, string> {
    return this.failed;
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.clients.values()].map((c) => c.close().catch(() => {})));
    this.clients.clear();
  }
}

function diagnosticsBlock(file: string, server: string, found: LspDiagnostic[]): string {
  const shown = found
    .slice(0, MAX_SHOWN)
    .map((d) => `${file}:${d.line}:${d.character}: ${d.severity}: ${d.message}`);
  const more = found.length > MAX_SHOWN ? [`… and ${found.length - MAX_SHOWN} more`] : [];
  return [
    `<diagnostics file="${file}" server="${server}">`,
    ...shown,
    ...more,
    "</diagnostics>",
  ].join("\n");
}
