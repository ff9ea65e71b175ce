/**
 * `editor/*` and plugin state (`plugins/setEnabled`, `plugins/config`, `plugins/saveConfig`):
 * the plugin editor. Files go through the engine's guarded plugin file access (never outside a
 * plugin folder); every change waits for the hot reload it causes and answers with its report and
 * the problems to mark. Log lines go only to the clients watching that plugin.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Problem } from "../../host/problem.ts";
import { configFields, saveConfig, setDisabled } from "../../editor/manifest-edit.ts";
import { mapToSource } from "../../editor/fault-location.ts";
import { faultProblem, loadProblems } from "../../editor/problems.ts";
import { reloadAfter } from "../../editor/reload-wait.ts";
import { createFromTemplate, defaultTemplatesDir, listTemplates } from "../../editor/templates.ts";
import type { PluginFeatures } from "../../code-plugins/loader/features.ts";
import { recordedTurns } from "../../engine/replay/model-request.ts";
import { PreviousVersions } from "../../engine/replay/previous.ts";
import type { ReplayResult } from "../../engine/replay/replay.ts";
import type { PluginSourceFiles } from "../../editor/source-files.ts";
import type { SessionStore } from "../../sessions/store.ts";
import type { ReloadReport } from "../../code-plugins/runtime/runtime.ts";
import type { SaveOutcome } from "../schemas/editor.ts";
import { toClient, type BridgeService, type CallHandlers, type ClientId } from "../service.ts";
import { loadedPlugins, type PluginsPort } from "./plugins.ts";

type EditorCalls =
  | Extract<keyof CallHandlers, `editor/${string}`>
  | "plugins/setEnabled"
  | "plugins/config"
  | "plugins/saveConfig";

/** What the plugin editor asks of the engine. */
export interface EditorPort extends Pick<PluginsPort, "plugins"> {
  /** Whether plugin folders are watched (a save then reloads by itself). */
  watchingPlugins(): boolean;
  /** Plugin files, read and written only inside a loaded plugin's folder. */
  readonly files: PluginSourceFiles;
  /** The plugins folders and config as loading reads them now (the project's once trusted). */
  pluginFeatures(): Promise<{ features: PluginFeatures }>;
  /** The saved sessions a replay picks its turn from. */
  readonly sessions: Pick<SessionStore, "list" | "resolve" | "load">;
  readonly workdir: string;
  /** A recorded turn's model request before and after the plugin's latest save; no model call. */
  replay(opts: {
    previous: PreviousVersions;
    plugin: string;
    sessionId: string;
    turn: number;
  }): Promise<ReplayResult>;
}

function entryOf(port: EditorPort, name: string) {
  const entry = loadedPlugins(port).get(name);
  if (!entry) throw new Error(`no plugin named ${JSON.stringify(name.slice(0, 80))}`);
  return entry;
}

/** What is wrong with plugin `name` now: a failed load or reload, and its last fault. */
async function currentProblems(port: EditorPort, name: string): Promise<Problem[]> {
  const runtime = loadedPlugins(port);
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
  port: EditorPort,
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
    problems: await currentProblems(port, name),
  });

  /** Runs a change to plugin `name`'s files and reports the reload it caused. */
  const change = async (
    name: string,
    files: string[],
    write: () => Promise<void>,
  ): Promise<SaveOutcome> => {
    const runtime = loadedPlugins(port);
    const { spec } = entryOf(port, name);
    await previous.capture(runtime, name);
    const full = files.map((f) => path.join(spec.dir, f));
    const report = await reloadAfter(
      { runtime, watching: port.watchingPlugins() },
      name,
      full,
      write,
    );
    return outcome(name, report);
  };

  return {
    "editor/files": async ({ name }) => {
      const { spec } = entryOf(port, name);
      return {
        name,
        source: spec.source,
        dir: spec.dir,
        entry: spec.entry ? path.relative(spec.dir, spec.entry).split(path.sep).join("/") : "",
        files: await port.files.list(name),
        problems: await currentProblems(port, name),
      };
    },
    "editor/read": async ({ name, path: file }) => ({
      content: await port.files.read(name, file),
    }),
    "editor/write": ({ name, path: file, content }) =>
      change(name, [file], () => port.files.write(name, file, content)),
    "editor/create": ({ name, path: file, content }) =>
      change(name, [file], () => port.files.create(name, file, content ?? "")),
    "editor/rename": ({ name, from, to }) =>
      change(name, [from, to], () => port.files.rename(name, from, to)),
    "editor/delete": ({ name, path: file }) =>
      change(name, [file], () => port.files.remove(name, file)),
    "editor/templates": async () => ({ templates: await listTemplates(templatesDir) }),
    "editor/newPlugin": async ({ template, name, scope }) => {
      const runtime = loadedPlugins(port);
      const existing = runtime.get(name);
      if (existing)
        throw new Error(`a plugin named "${name}" already exists (${existing.spec.dir})`);
      const { features } = await port.pluginFeatures();
      const home = features.dirs.find((d) => d.source === scope);
      if (!home) throw new Error(`there is no ${scope} plugins folder in this session`);
      // A folder that did not exist when watching began is not watched: reload directly.
      const watched =
        port.watchingPlugins() &&
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
      const log = entryOf(port, name).plugin.log;
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
      const all = await port.sessions.list();
      const sessions = all
        .filter((s) => s.workdir === port.workdir && s.messageCount > 0)
        .map((s) => ({ id: s.id, title: s.title || "(untitled)", updatedAt: s.updatedAt }));
      const id = sessionId ? await port.sessions.resolve(sessionId) : (sessions[0]?.id ?? null);
      if (!id) return { sessions, sessionId: null, turns: [] };
      return { sessions, sessionId: id, turns: recordedTurns(await port.sessions.load(id)) };
    },
    "editor/replay": ({ name, sessionId, turn }) =>
      port.replay({ previous, plugin: name, sessionId, turn }),
    "plugins/setEnabled": ({ name, enabled }) =>
      change(name, ["plugin.yaml"], () =>
        setDisabled(entryOf(port, name).spec.manifestFile, !enabled),
      ),
    "plugins/config": async ({ name }) => {
      const { spec } = entryOf(port, name);
      const { features } = await port.pluginFeatures();
      const overridden = new Set([
        ...Object.keys(features.config.global),
        ...Object.keys(features.config.local[name] ?? {}),
      ]);
      return { fields: await configFields(spec.manifestFile, spec.config, overridden) };
    },
    "plugins/saveConfig": async ({ name, values }) => {
      const { spec } = entryOf(port, name);
      return change(name, ["plugin.yaml"], () => saveConfig(spec.manifestFile, name, values));
    },
  };
}
