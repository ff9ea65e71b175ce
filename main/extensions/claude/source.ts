/**
 * Claude Code plugins, loaded unchanged from the plugins folders code plugins live in (a folder
 * with `.claude-plugin/plugin.json`): commands, skills, agents, hooks/hooks.json, .mcp.json and
 * output styles, each plugin in a registrar scope of its own (a folder a marketplace lists loads
 * without plugin.json too, named by its entry), through the loaders Islet's own
 * commands, skills, agents and MCP servers use. A project's plugins are held to the project's
 * trust: untrusted, their hooks and MCP servers (programs run outside any sandbox) are listed but
 * not run; their commands' !`cmd` lines go through the approval policy like any command's.
 * Language servers, held back the same way, start on demand after a Write or Patch (lsp-hooks.ts).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Context } from "../../../plugins/sdk/index.ts";
import type { Homes } from "../../config/homes.ts";
import { isSelected } from "../../code-plugins/loader/discover.ts";
import {
  loadPluginFeatures,
  selectionFor,
  type PluginFlags,
} from "../../code-plugins/loader/features.ts";
import { findPluginFolders } from "../../code-plugins/loader/walk.ts";
import type { Marketplace } from "../../code-plugins/loader/claude-marketplace.ts";
import { HOOK_SOURCE_ORDER } from "../../contributions/hook-sources.ts";
import { registerMarkdownCommands } from "../markdown/command.ts";
import { registerSkills } from "../markdown/skill-command.ts";
import type { ContributionRegistrar } from "../../contributions/registrar.ts";
import type { Discovery, ExtensionSource } from "../../contributions/source.ts";
import { ShellHookRegistry } from "../shell-hooks/registry.ts";
import type { PermissionAnswer } from "../permission-request.ts";
import { readClaudePlugin, type ClaudePlugin } from "./plugin.ts";
import { LspHookRegistry } from "./lsp-hooks.ts";
import { chooseAmongSameNames, packFolder, type PlacedPlugin } from "./same-name.ts";
import type { Problem, ProblemSink } from "../../host/problem.ts";

/**
 * One line for what a marketplace lists from other repositories: they are packs of their own.
 * The install said it; `islet plugins list` and the app's catalog say it again, not every start.
 */
function remoteNotInstalled(market: Marketplace, pluginsDir: string): Problem {
  const n = market.remote.length;
  const pack = packFolder(pluginsDir, market.file).name;
  return {
    source: "claude-plugins",
    file: market.file,
    title: `${n} plugin${n === 1 ? "" : "s"} listed from other repositories ${n === 1 ? "is" : "are"} not in this pack`,
    suggestion: `install one with islet plugins add ${pack} --plugin NAME`,
  };
}

export class ClaudePluginSource implements ExtensionSource<ClaudePlugin> {
  readonly id = "claude-plugins";
  private readonly homes: Homes;
  private readonly flags: PluginFlags;
  private readonly warn: ProblemSink;
  private readonly env: Record<string, string | undefined> | undefined;
  private registries: ShellHookRegistry[] = [];
  private lsp: LspHookRegistry[] = [];
  /** What the last load found (the plugin browser and `islet plugins list` show it). */
  plugins: ClaudePlugin[] = [];
  /**
   * Notes for `islet plugins list`, not said at every start: what marketplaces list from other
   * repositories, and plugins that do not load because another of their name does.
   */
  listNotes: Problem[] = [];

  constructor(opts: {
    homes: Homes;
    flags: PluginFlags;
    warn(problem: Problem): void;
    /** `${VAR}` values for .mcp.json (default process.env). */
    env?: Record<string, string | undefined>;
  }) {
    this.env = opts.env;
    this.homes = opts.homes;
    this.flags = opts.flags;
    this.warn = opts.warn;
  }

  async discover(): Promise<Discovery<ClaudePlugin> & { notes: Problem[] }> {
    const { features } = await loadPluginFeatures(this.homes, this.flags);
    const out: Discovery<ClaudePlugin> & { notes: Problem[] } = {
      found: [],
      problems: [],
      notes: [],
    };
    if (features.withoutPlugins) return out;
    const trusted = this.flags.trustedProject === true;
    const placed: PlacedPlugin[] = [];
    for (const where of features.dirs) {
      const walked = await findPluginFolders(where.dir);
      for (const market of walked.marketplaces) {
        out.problems.push(...market.problems);
        if (market.remote.length > 0) out.notes.push(remoteNotInstalled(market, where.dir));
      }
      for (const dir of walked.claudeFolders) {
        const market = walked.claudeEntries.get(dir);
        const plugin = readClaudePlugin(dir, {
          scope: where.source,
          heldBack: where.source === "project" && !trusted,
          env: this.env,
          ...(market ? { market } : {}),
        });
        const { include, exclude } = selectionFor(features, where.source);
        if (!isSelected(plugin.name, include, exclude)) plugin.status = "excluded";
        out.found.push(plugin);
        out.problems.push(...plugin.errors);
        const times = walked.packsInstalled.get(packFolder(where.dir, dir).dir);
        // A plugin an update brought counts from that update, not from the pack's install.
        const installedAt =
          times?.addedAt && Object.hasOwn(times.addedAt, plugin.name)
            ? times.addedAt[plugin.name]
            : times?.installedAt;
        placed.push({ plugin, pluginsDir: where.dir, ...(installedAt ? { installedAt } : {}) });
      }
    }
    out.notes.push(...chooseAmongSameNames(placed));
    // By name; of two of one name, the one that loads first.
    const shadowed = (p: ClaudePlugin) => (p.status === "shadowed" ? 1 : 0);
    out.found.sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : shadowed(a) - shadowed(b),
    );
    return out;
  }

  async load(registrar: ContributionRegistrar): Promise<void> {
    const { found, problems, notes } = await this.discover();
    this.plugins = found;
    this.listNotes = notes;
    // The marketplaces' own lines (their plugins' lines come with each plugin below).
    const ofPlugins = new Set(found.flatMap((p) => p.errors));
    for (const problem of problems) if (!ofPlugins.has(problem)) this.warn(problem);
    for (const plugin of found) {
      // Its warnings (what was read leniently, what Islet lacks) stay with it: its card in the
      // app and `islet plugins show` list them, `plugins list` counts them. Said at every start,
      // they were a marketplace's dozen lines before each run; what failed to load still is.
      for (const problem of plugin.errors) this.warn(problem);
      if (plugin.status !== "enabled") continue;
      const scope = registrar.scope();
      const pluginData = path.join(this.homes.global, "plugin-data", plugin.name);
      const origin = {
        source: "plugin" as const,
        plugin: plugin.name,
        vars: { CLAUDE_PLUGIN_ROOT: plugin.dir, CLAUDE_PLUGIN_DATA: pluginData },
      };
      registerMarkdownCommands(scope, plugin.commands, origin);
      registerSkills(scope, plugin.skills, origin);
      for (const agent of plugin.agents) scope.agent(agent);
      if (plugin.heldBack) continue;
      for (const spec of plugin.mcpServers)
        scope.mcpServer({ name: spec.name, source: spec.source, spec });
      if (plugin.lspServers.some((s) => !s.unusable)) {
        const lsp = new LspHookRegistry(plugin.name, plugin.lspServers, this.warn);
        this.lsp.push(lsp);
        scope.hooks(lsp, HOOK_SOURCE_ORDER.claudePlugins);
      }
      if (plugin.hooks.length === 0) continue;
      try {
        mkdirSync(pluginData, { recursive: true });
      } catch (err) {
        this.warn({
          source: plugin.name,
          title: `cannot create its data folder ${pluginData}: ${(err as Error).message}`,
        });
      }
      const registry = new ShellHookRegistry({
        hooks: plugin.hooks.map((spec) => ({
          spec,
          origin: { label: plugin.name, pluginRoot: plugin.dir, pluginData },
        })),
        globalHome: this.homes.global,
      });
      for (const problem of registry.problems) {
        plugin.errors.push(problem);
        this.warn(problem);
      }
      this.registries.push(registry);
      scope.hooks(registry, HOOK_SOURCE_ORDER.claudePlugins);
    }
  }

  /** SessionEnd for a closed conversation, plugin by plugin; their failures. */
  async sessionEnd(ctx: Context, reason: string): Promise<Problem[]> {
    const failures: Problem[] = [];
    for (const r of this.registries) failures.push(...(await r.sessionEnd(ctx, reason)));
    return failures;
  }

  /** SubagentStart hooks, plugin by plugin: their failures and the context they add. */
  async subagentStart(
    session: { id: string; workdir: string },
    agent: string,
  ): Promise<{ failures: Problem[]; contexts: string[] }[]> {
    const out: { failures: Problem[]; contexts: string[] }[] = [];
    for (const r of this.registries) out.push(await r.outside.subagentStart(session, agent));
    return out;
  }

  /** SubagentStop hooks, plugin by plugin: their failures, reasons to go on. */
  async subagentStop(
    session: { id: string; workdir: string },
    agent: string,
    active: boolean,
    answer: string,
  ): Promise<{ failures: Problem[]; reasons: string[] }> {
    const out = { failures: [] as Problem[], reasons: [] as string[] };
    for (const r of this.registries) {
      const one = await r.outside.subagentStop(session, agent, active, answer);
      out.failures.push(...one.failures);
      out.reasons.push(...one.reasons);
    }
    return out;
  }

  /** UserPromptExpansion hooks, plugin by plugin: failures, reasons to block, context. */
  async userPromptExpansion(
    session: { id: string; workdir: string },
    expansion: { name: string; args: string; source: string; prompt: string },
  ): Promise<{ failures: Problem[]; reasons: string[]; contexts: string[] }> {
    const out = { failures: [] as Problem[], reasons: [] as string[], contexts: [] as string[] };
    for (const r of this.registries) {
      const one = await r.outside.userPromptExpansion(session, expansion);
      out.failures.push(...one.failures);
      out.reasons.push(...one.reasons);
      out.contexts.push(...one.contexts);
    }
    return out;
  }

  /** PermissionRequest hooks, plugin by plugin: their failures and answers (none may approve). */
  async permissionRequest(
    session: { id: string; workdir: string },
    tool: string,
    args: Record<string, unknown>,
  ): Promise<{ failures: Problem[]; answers: PermissionAnswer[] }> {
    const out = { failures: [] as Problem[], answers: [] as PermissionAnswer[] };
    for (const r of this.registries) {
      const one = await r.outside.permissionRequest(session, tool, args);
      out.failures.push(...one.failures);
      out.answers.push(...one.answers);
    }
    return out;
  }

  /** Notification hooks, plugin by plugin; their failures. */
  async notification(
    session: { id: string; workdir: string },
    message: string,
    type: string,
  ): Promise<Problem[]> {
    const failures: Problem[] = [];
    for (const r of this.registries)
      failures.push(...(await r.outside.notification(session, message, type)));
    return failures;
  }

  /** Its plugins' last session hook commands still running (ShellHookRegistry.stillClosing). */
  stillClosing(): { hook: string; ended: Promise<unknown> }[] {
    return this.registries.flatMap((r) => r.stillClosing());
  }

  async dispose(): Promise<void> {
    for (const r of this.registries) r.dispose();
    this.registries = [];
    await Promise.all(this.lsp.map((l) => l.dispose()));
    this.lsp = [];
  }
}
