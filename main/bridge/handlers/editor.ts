/**
 * `editor/*` and plugin state (`plugins/setEnabled`, `plugins/config`, `plugins/saveConfig`):
 * the plugin editor. Files go through the engine's guarded plugin file access (never outside a
 * plugin folder); every change waits for the hot reload it causes and answers with its report and
 * the problems to mark. Log lines go only to the clients watching that plugin.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Engine } from "../../engine/engine.ts";
import type { Problem } from "../../host/problem.ts";
import { configFields, saveConfig, setDisabled } from "../../editor/manifest-edit.ts";
import { mapToSource } from "../../editor/fault-location.ts";
import { faultProblem, loadProblems } from "../../editor/problems.ts";
import { reloadAfter } from "../../editor/reload-wait.ts";
import { createFromTemplate, defaultTemplatesDir, listTemplates } from "../../editor/templates.ts";
import { loadPluginFeatures } from "../../code-plugins/loader/features.ts";
import { recordedTurns } from "../../engine/replay/model-request.ts";
import { PreviousVersions } from "../../engine/replay/previous.ts";
import { replayTurn } from "../../engine/replay/replay.ts";
import type { PluginRuntime, ReloadReport } from "../../code-plugins/runtime/runtime.ts";
import type { SaveOutcome } from "../schemas/editor.ts";
import { toClient, type BridgeService, type CallHandlers, type ClientId } from "../service.ts";

type EditorCalls =
  | Extract<keyof CallHandlers, `editor/${string}`>
  | "plugins/setEnabled"
  | "plugins/config"
  | "plugins/saveConfig";

function runtimeOf(engine: Engine): PluginRuntime {
  if (!engine.plugins) throw new Error("plugins are off in this session (--without-plugins)");
  return engine.plugins;
}

function entryOf(engine: Engine, name: string) {
  const entry = runtimeOf(engine).get(name);
  if (!entry) throw new Error(`no plugin named ${JSON.stringify(name.slice(0, 80))}`);
  return entry;
}

/** What is wrong with plugin `name` now: a failed load or reload, and its last fault. */
async function currentProblems(engine: Engine, name: string): Promise<Problem[]> {
  const runtime = runtimeOf(engine);
  const entry = runtime.get(name);
  if (!entry) return [];
  const { spec, plugin } = entry;
  const out: Problem[] = [];
  if (plugin.status === "failed") out.push(...loadProblems(plugin.problems, name, spec.dir));
  if (entry.reloadProblems) out.push(...loadProblems(entry.reloadProblems, name, spec.dir));
  if (plugin.lastFault) {
    let fault = faultProblem(plugin.lastFault, name, spec.dir, spec.entry);
    // The stack names a line of the bundle that ran: map it back to the source the author wrote.
    const bundle = await runtime.port.bundle(spec).catch(() => null);
    if (bundle && fault.line !== undefined) fault = mapToSource(fault, bundle.code, spec.dir);
    out.push(fault);
  }
  return out;
}

export function editorHandlers(
  engine: Engine,
  service: Pick<BridgeService, "emit" | "onDisconnect">,
  opts: { templatesDir?: string } = {},
): Pick<CallHandlers, EditorCalls> {
  const templatesDir = opts.templatesDir ?? defaultTemplatesDir();
  const previous = new PreviousVersions();
  /** Per client: the plugins whose log it watches, and how to stop. */
  const logWatchers = new Map<ClientId, Map<string, () => void>>();
  service.onDisconnect((client) => {
    for (const stop of logWatchers.get(client)?.values() ?? []) stop();
    logWatchers.delete(client);
  });

  const outcome = async (name: string, report: ReloadReport | null): Promise<SaveOutcome> => ({
    report,
    problems: await currentProblems(engine, name),
  });

  /** Runs a change to plugin `name`'s files and reports the reload it caused. */
  const change = async (
    name: string,
    files: string[],
    write: () => Promise<void>,
  ): Promise<SaveOutcome> => {
    const runtime = runtimeOf(engine);
    const { spec } = entryOf(engine, name);
    await previous.capture(runtime, name);
    const full = files.map((f) => path.join(spec.dir, f));
    const report = await reloadAfter(
      { runtime, watching: engine.watchingPlugins },
      name,
      full,
      write,
    );
    return outcome(name, report);
  };

  return {
    "editor/files": async ({ name }) => {
      const { spec } = entryOf(engine, name);
      return {
        name,
        source: spec.source,
        dir: spec.dir,
        entry: spec.entry ? path.relative(spec.dir, spec.entry).split(path.sep).join("/") : "",
        files: await engine.pluginFiles.list(name),
        problems: await currentProblems(engine, name),
      };
    },
    "editor/read": async ({ name, path: file }) => ({
      content: await engine.pluginFiles.read(name, file),
    }),
    "editor/write": ({ name, path: file, content }) =>
      change(name, [file], () => engine.pluginFiles.write(name, file, content)),
    "editor/create": ({ name, path: file, content }) =>
      change(name, [file], () => engine.pluginFiles.create(name, file, content ?? "")),
    "editor/rename": ({ name, from, to }) =>
      change(name, [from, to], () => engine.pluginFiles.rename(name, from, to)),
    "editor/delete": ({ name, path: file }) =>
      change(name, [file], () => engine.pluginFiles.remove(name, file)),
    "editor/templates": async () => ({ templates: await listTemplates(templatesDir) }),
    "editor/newPlugin": async ({ template, name, scope }) => {
      const runtime = runtimeOf(engine);
      const existing = runtime.get(name);
      if (existing)
        throw new Error(`a plugin named "${name}" already exists (${existing.spec.dir})`);
      const { features } = await loadPluginFeatures(engine.homes, {
        trustedProject: engine.trust.trusted,
      });
      const home = features.dirs.find((d) => d.source === scope);
      if (!home) throw new Error(`there is no ${scope} plugins folder in this session`);
      // A folder that did not exist when watching began is not watched: reload directly.
      const watched =
        engine.watchingPlugins &&
        existsSync(home.dir) &&
        runtime.port.pluginDirs().includes(home.dir);
      const dir = path.join(home.dir, name);
      const report = await reloadAfter({ runtime, watching: watched }, name, [dir], async () => {
        await createFromTemplate({ templatesDir, template, name, pluginsDir: home.dir });
      });
      const entry = runtime.get(name);
      const entryFile = entry?.spec.entry ? path.relative(entry.spec.dir, entry.spec.entry) : "";
      return { name, entry: entryFile || "index.ts", outcome: await outcome(name, report) };
    },
    "editor/watchLog": ({ name }, { client }) => {
      const log = entryOf(engine, name).plugin.log;
      const mine = logWatchers.get(client) ?? new Map<string, () => void>();
      logWatchers.set(client, mine);
      mine.get(name)?.();
      mine.set(
        name,
        log.subscribe((line) => service.emit(toClient(client), "plugins/log", { name, line })),
      );
      return { lines: log.recent() };
    },
    "editor/unwatchLog": ({ name }, { client }) => {
      const mine = logWatchers.get(client);
      mine?.get(name)?.();
      mine?.delete(name);
    },
    "editor/recordedTurns": async ({ sessionId }) => {
      const all = await engine.store.list();
      const sessions = all
        .filter((s) => s.workdir === engine.homes.workdir && s.messageCount > 0)
        .map((s) => ({ id: s.id, title: s.title || "(untitled)", updatedAt: s.updatedAt }));
      const id = sessionId ? await engine.store.resolve(sessionId) : (sessions[0]?.id ?? null);
      if (!id) return { sessions, sessionId: null, turns: [] };
      return { sessions, sessionId: id, turns: recordedTurns(await engine.store.load(id)) };
    },
    "editor/replay": ({ name, sessionId, turn }) =>
      replayTurn({ engine, previous, plugin: name, sessionId, turn }),
    "plugins/setEnabled": ({ name, enabled }) =>
      change(name, ["plugin.yaml"], () =>
        setDisabled(entryOf(engine, name).spec.manifestFile, !enabled),
      ),
    "plugins/config": async ({ name }) => {
      const { spec } = entryOf(engine, name);
      const { features } = await loadPluginFeatures(engine.homes, {
        trustedProject: engine.trust.trusted,
      });
      const overridden = new Set([
        ...Object.keys(features.config.global),
        ...Object.keys(features.config.local[name] ?? {}),
      ]);
      return { fields: await configFields(spec.manifestFile, spec.config, overridden) };
    },
    "plugins/saveConfig": async ({ name, values }) => {
      const { spec } = entryOf(engine, name);
      return change(name, ["plugin.yaml"], () => saveConfig(spec.manifestFile, name, values));
    },
  };
}
