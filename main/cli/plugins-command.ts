/**
 * `islet plugins list|show [--json]`: what is installed, what it hooks, what is wrong with it, and
 * where each pack came from; `add|update|remove` are plugin-packs-command.ts.
 */
import { parseArgs } from "node:util";
import { createEngine } from "../engine/bootstrap.ts";
import { listPlugins, pluginInfo, type PluginInfo } from "../code-plugins/runtime/describe.ts";
import { describeHooks } from "../code-plugins/runtime/commands.ts";
import { COMMON_OPTIONS, parseFlags, PLUGIN_OPTIONS, pluginFlags } from "./options.ts";
import { type Output, warningLines } from "./render.ts";
import { formatProblem, type Problem } from "../host/problem.ts";
import { UsageError } from "./usage.ts";
import { visibleText } from "../core/visible-text.ts";
import { describePermission } from "../host/permission-text.ts";
import { permissionsCommand } from "./plugin-permissions-command.ts";
import { packManager, type InstalledPack } from "../packs/index.ts";
import { packOriginLines, packsText, packOf } from "./pack-origin-text.ts";
import { runnerPluginText, runnerPluginsText } from "./runner-plugins-text.ts";
import { claudePluginJson, claudePluginText, claudePluginsText } from "./claude-plugin-text.ts";

function showText(p: PluginInfo, pack: InstalledPack | undefined): string {
  const lines = [
    `Name:        ${p.name}`,
    `Description: ${p.description || "(none)"}`,
    `Status:      ${p.status}${p.error ? ` — ${p.error}` : ""}`,
    ...(p.reloadError
      ? [`Last reload: failed — ${p.reloadError} (previous version still serving)`]
      : []),
    `Source:      ${p.source} (${p.dir})`,
    ...packOriginLines(pack),
    `Entry:       ${p.entry}`,
    `SDK:         ${p.sdk}`,
    `Sandbox:     ${p.backend.name} (${p.backend.reason})`,
    `Hooks:       ${p.hooks.join(", ") || "(none)"}`,
    ...(p.condition ? [`Condition:   ${p.condition}`] : []),
    ...(p.once
      ? [`Once:        true${p.fired.length ? ` (fired: ${p.fired.join(", ")})` : ""}`]
      : []),
    ...(p.tool
      ? [
          `Tool:        ${p.tool.name}${p.tool.parallel ? "" : " (not parallel)"}${p.tool.optIn ? " (opt-in)" : ""}${p.tool.override ? " (override)" : ""}`,
        ]
      : []),
    ...(p.command
      ? [`Command:     /${p.command.name}${p.command.hints ? ` ${p.command.hints}` : ""}`]
      : []),
    ...(p.logFile ? [`Log:         ${p.logFile}`] : []),
    ...p.permissions.map(
      (item, i) =>
        `${i === 0 ? "Permissions: " : "             "}${item.status.padEnd(12)} ${visibleText(describePermission(item))}`,
    ),
    ...p.warnings.map((w) => `Warning:     ${w}`),
  ];
  return `${lines.join("\n")}\n`;
}

/** The subcommand, found before the strict parse: each subcommand takes options of its own. */
function subcommand(argv: string[]): string | undefined {
  const strings = { type: "string" } as const;
  const { positionals } = parseArgs({
    args: argv,
    options: {
      ...COMMON_OPTIONS,
      ...PLUGIN_OPTIONS,
      ref: strings,
      subpath: strings,
      name: strings,
    },
    strict: false,
    allowPositionals: true,
  });
  return positionals[0];
}

export async function pluginsCommand(argv: string[], io: Output): Promise<number> {
  const first = subcommand(argv);
  if (first === "search")
    return (await import("./plugins-search-command.ts")).searchCommand(argv, io);
  if (first === "permissions") return permissionsCommand(argv, io);
  if (first === "add" || first === "update" || first === "remove")
    return (await import("./plugin-packs-command.ts")).packsCommand(first, argv, io);
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    ...PLUGIN_OPTIONS,
    json: { type: "boolean" },
  });
  const [sub = "list", name] = positionals;
  if (sub !== "list" && sub !== "show") {
    throw new UsageError(
      `plugins: unknown subcommand "${sub}" (list, show NAME, permissions NAME, add SOURCE, update NAME|--all, remove NAME)`,
    );
  }
  // Warnings wait until the listing is known: each is said once, and not again beside it.
  const heldBack: Problem[] = [];
  const held = (problem: Problem) => void heldBack.push(problem);
  const engine = await createEngine({
    home: values.home,
    workdir: values.workdir,
    envFile: values["env-file"],
    plugins: pluginFlags(values),
    warn: held,
  }).catch((err: unknown) => {
    heldBack.forEach(warningLines(io));
    throw err;
  });
  try {
    const runtime = engine.plugins!;
    const packs = await packManager({ homes: engine.homes, warn: held }).list();
    const info = sub === "show" && name ? pluginInfo(runtime, name) : undefined;
    const claudePlugin =
      sub === "show" && name && !info
        ? engine.declarative.claudePlugins?.plugins.find((p) => p.name === name)
        : undefined;
    // The listing shows the plugins' own problems (and `show` a Claude plugin's errors and
    // warnings); a warning repeating one is noise.
    const listed = new Set(
      [
        ...runtime.problems,
        ...(claudePlugin ? [...claudePlugin.errors, ...claudePlugin.warnings] : []),
      ].map((p) => formatProblem(p)),
    );
    const warn = warningLines(io);
    for (const problem of new Map(heldBack.map((p) => [formatProblem(p), p])).values())
      if (!listed.has(formatProblem(problem))) warn(problem);
    if (sub === "list") {
      const all = listPlugins(runtime);
      const onDemand = engine.activation.list();
      // `--json` keeps its shape: each problem as its file (or flag) and its line.
      const problems = runtime.problems.map((p) => ({
        file: p.file ?? p.source,
        message: formatProblem(p),
      }));
      if (values.json)
        io.out(
          `${JSON.stringify({ backend: runtime.backend, plugins: all, onDemand, problems, packs }, null, 2)}\n`,
        );
      else
        io.out(
          `Sandbox: ${runtime.backend.name} (${runtime.backend.reason})\n\n${describeHooks(runtime)}\n${runnerPluginsText(onDemand)}${claudePluginsText(engine.declarative.claudePlugins?.plugins ?? [], engine.declarative.claudePlugins?.listNotes)}${packsText(packs)}`,
        );
      return 0;
    }
    if (!name) throw new UsageError("plugins show: a plugin name is required");
    const runner = engine.activation.list().find((e) => e.kind === "runner" && e.name === name);
    if (!info && runner) {
      io.out(values.json ? `${JSON.stringify(runner, null, 2)}\n` : runnerPluginText(runner));
      return 0;
    }
    if (claudePlugin) {
      // Its servers are started so that one that cannot start shows why.
      if (claudePlugin.status === "enabled" && !claudePlugin.heldBack)
        await engine.mcp.start(claudePlugin.mcpServers.map((m) => m.name));
      const mcpState = (server: string) => engine.mcp.list().find((m) => m.name === server);
      const pack = packOf(packs, claudePlugin.dir);
      // Other copies of it (another marketplace carries it too): not loaded.
      const copies = (engine.declarative.claudePlugins?.plugins ?? []).filter(
        (p) => p.name === name && p !== claudePlugin,
      );
      io.out(
        values.json
          ? `${JSON.stringify({ ...claudePluginJson(claudePlugin, pack, mcpState), copies: copies.map((c) => ({ dir: c.dir, status: c.status })) }, null, 2)}\n`
          : claudePluginText(claudePlugin, pack, mcpState, copies),
      );
      return 0;
    }
    if (!info) throw new UsageError(`no plugin named "${name}"; \`islet plugins list\` shows them`);
    const pack = packOf(packs, info.dir);
    io.out(
      values.json
        ? `${JSON.stringify({ ...info, pack: pack ? { name: pack.name, dir: pack.dir, origin: pack.origin ?? null } : null }, null, 2)}\n`
        : showText(info, pack),
    );
    return 0;
  } finally {
    await engine.close();
  }
}
