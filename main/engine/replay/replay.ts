/**
 * "Try on a recorded turn": the edited plugin's hooks run against a turn recorded in a session,
 * once with the version that served before the latest save (or without the plugin, when there
 * was none) and once with the saved code, each in a throwaway sandbox; the two model requests
 * come back side by side. Only this plugin's hooks run, so the difference is its own.
 */
import type { HookRegistry, HookTiming } from "../../turn/hooks/types.ts";
import type { Engine } from "../engine.ts";
import { buildPlugin, type Built } from "../../code-plugins/runtime/build.ts";
import { OnceTracker, pluginHandler } from "../../code-plugins/runtime/handlers.ts";
import { PluginLog } from "../../code-plugins/runtime/plugin-log.ts";
import type { BundleOutput, PluginSpec } from "../../code-plugins/runtime/port.ts";
import type { PreviousVersions } from "./previous.ts";
import { requestForTurn, requestText, type RequestView } from "./model-request.ts";

export interface ReplayResult {
  sessionId: string;
  turn: number;
  /** "previous": the version before the latest save; "without": no previous version is known. */
  baseline: "previous" | "without";
  before: RequestView;
  after: RequestView;
  beforeText: string;
  afterText: string;
  ms: number;
}

function hooksOf(spec: PluginSpec, built: Built): HookRegistry {
  const once = new OnceTracker();
  return {
    handlers<T extends HookTiming>(timing: T) {
      const plugin = built.plugin;
      if (plugin.status !== "active" || !plugin.exports.hooks.includes(timing)) return [];
      return [
        pluginHandler({
          plugin: () => plugin,
          timing,
          condition: built.condition,
          once: spec.once,
          onceTracker: once,
          pluginConfig: spec.config,
        }),
      ];
    },
  };
}

/** The plugin from `bundle` (or its files on disk) in a sandbox of its own; logs stay in memory. */
async function throwaway(engine: Engine, spec: PluginSpec, bundle?: BundleOutput): Promise<Built> {
  const port = engine.plugins!.port;
  const from = bundle ? { ...port, bundle: async () => bundle } : port;
  const built = await buildPlugin({ ...spec, disabled: false }, from, new PluginLog(null));
  if (built.plugin.status !== "active")
    throw new Error(built.plugin.error ?? `${spec.name}: did not load`);
  return built;
}

export async function replayTurn(opts: {
  engine: Engine;
  previous: PreviousVersions;
  plugin: string;
  sessionId: string;
  turn: number;
}): Promise<ReplayResult> {
  const started = performance.now();
  const { engine, plugin } = opts;
  const runtime = engine.plugins;
  if (!runtime) throw new Error("plugins are off in this session (--without-plugins)");
  const entry = runtime.get(plugin);
  if (!entry) throw new Error(`no plugin named "${plugin.slice(0, 80)}"`);
  const session = await engine.store.load(await engine.store.resolve(opts.sessionId));
  const oldBundle = opts.previous.get(plugin);
  const built: Built[] = [];
  try {
    const after = await throwaway(engine, entry.spec);
    built.push(after);
    let beforeHooks: HookRegistry = { handlers: () => [] };
    if (oldBundle) {
      const old = await throwaway(engine, entry.spec, oldBundle);
      built.push(old);
      beforeHooks = hooksOf(entry.spec, old);
    }
    const before = await requestForTurn(engine, session, opts.turn, beforeHooks);
    const afterView = await requestForTurn(engine, session, opts.turn, hooksOf(entry.spec, after));
    return {
      sessionId: session.id,
      turn: opts.turn,
      baseline: oldBundle ? "previous" : "without",
      before,
      after: afterView,
      beforeText: requestText(before),
      afterText: requestText(afterView),
      ms: Math.round(performance.now() - started),
    };
  } finally {
    for (const b of built) b.plugin.dispose();
  }
}
