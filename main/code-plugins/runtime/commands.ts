/** Slash commands about plugins: /plugins, /reload, /assert. Built-in priority. */
import { HOOK_TIMING_TABLE } from "../../core/hook-timings.ts";
import { HOOK_TIMINGS } from "../../turn/hooks/types.ts";
import type { SlashCommand } from "../../commands/types.ts";
import type { OnceTracker } from "./handlers.ts";
import type { LoadedPlugin } from "./loaded-plugin.ts";
import type { OnDemandPlugins } from "./on-demand.ts";
import type { PluginPort, PluginSpec } from "./port.ts";
import { formatProblem, type Problem } from "../../host/problem.ts";

/** What these commands read of the plugin runtime (runtime.ts registers them with itself). */
export interface PluginListing {
  names(): string[];
  get(name: string): { spec: PluginSpec; plugin: LoadedPlugin } | undefined;
  readonly once: Pick<OnceTracker, "anyFired">;
  readonly onDemand: Pick<OnDemandPlugins, "list" | "isActivated">;
  readonly problems: readonly Problem[];
  readonly port: Pick<PluginPort, "condition" | "workdir">;
  reloadAll(): Promise<readonly { name: string; ok: boolean; error?: string }[]>;
}

/** Hooks grouped by timing, as in the seed's /plugins listing. */
export function describeHooks(runtime: PluginListing): string {
  const out: string[] = [];
  for (const timing of HOOK_TIMINGS) {
    const rows: [string, string][] = [];
    for (const name of runtime.names()) {
      const entry = runtime.get(name)!;
      if (!entry.plugin.exports.hooks.includes(timing)) continue;
      const status = entry.plugin.status === "active" ? "enabled" : entry.plugin.status;
      let extra = "";
      if (entry.spec.condition) extra += ` condition="${entry.spec.condition}"`;
      if (entry.spec.once)
        extra += ` once=true${runtime.once.anyFired(name, timing) ? " (fired)" : ""}`;
      rows.push([`${name}/${HOOK_TIMING_TABLE[timing].title}`, `${status}${extra}`]);
    }
    if (rows.length === 0) continue;
    const width = Math.max(...rows.map(([l]) => l.length));
    out.push(
      `${HOOK_TIMING_TABLE[timing].title}:`,
      ...rows.map(([l, r]) => `  ${l.padEnd(width)}  ${r}`),
      "",
    );
  }
  const others = runtime
    .names()
    .filter(
      (n) =>
        runtime.get(n)!.plugin.exports.hooks.length === 0 ||
        runtime.get(n)!.plugin.status !== "active",
    );
  for (const name of others) {
    const e = runtime.get(name)!;
    const what = [
      e.plugin.exports.tool ? `tool ${e.plugin.exports.tool.schema.name}` : "",
      e.plugin.exports.command ? `command /${e.plugin.exports.command.name}` : "",
    ]
      .filter(Boolean)
      .join(", ");
    out.push(
      `${name}: ${e.plugin.status}${what ? ` (${what})` : ""}${e.plugin.error ? ` — ${e.plugin.error}` : ""}`,
    );
  }
  for (const spec of runtime.onDemand.list())
    if (!runtime.onDemand.isActivated(spec.name))
      out.push(`${spec.name}: on demand, inactive (\`/plugin activate ${spec.name}\` loads it)`);
  for (const p of runtime.problems) out.push(`load error: ${formatProblem(p)}`);
  return out.join("\n").trim() || "No code plugins loaded.";
}

export function pluginCommands(runtime: PluginListing): SlashCommand[] {
  return [
    {
      name: "plugins",
      description: "List plugin hooks by timing, with status, condition and once state.",
      source: "builtin",
      async run() {
        return { output: describeHooks(runtime) };
      },
    },
    {
      name: "reload",
      description: "Rebuild and reload every plugin.",
      source: "builtin",
      async run() {
        const reports = await runtime.reloadAll();
        const failed = reports.filter((r) => !r.ok);
        const lines = [`Reloaded ${reports.length - failed.length} of ${reports.length} plugins.`];
        for (const f of failed) lines.push(`${f.name}: ${f.error}`);
        return { output: lines.join("\n") };
      },
    },
    {
      name: "assert",
      description: "Evaluate a condition against the session now (same vocabulary as plugin.yaml).",
      hints: "<condition>",
      source: "builtin",
      async run(args, env) {
        if (args === "")
          return {
            output: "usage: /assert <condition>, e.g. /assert todo_pending and context_above:50",
          };
        const check = runtime.port.condition(args, runtime.port.workdir);
        const ok = await check.test(env.context());
        return { output: `${args}: ${ok}` };
      },
    },
  ];
}
