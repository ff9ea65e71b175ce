/**
 * The plugin editor's part of the contract (`editor/*`, plugin state `plugins/setEnabled`,
 * `plugins/config`, `plugins/saveConfig`, event `plugins/log`). Plain zod: the renderer bundles it.
 */
import { z } from "zod";
import { ReloadResult } from "./reload.ts";
import { Problem } from "../../host/problem.ts";

const PluginName = z.string().min(1).max(200);
/** Relative to the plugin folder, `/`-separated; the engine refuses anything that escapes. */
const FilePath = z.string().min(1).max(1000);

/** After a change on disk: the reload it caused and the problems to mark in the editor. */
export const SaveOutcome = z.strictObject({
  /** Null when no reload report came (the plugin is not loaded, e.g. disabled with errors). */
  report: ReloadResult.nullable(),
  /**
   * Bundle errors, a failed reload (the previous version keeps serving) and the last runtime
   * fault, each with its file relative to the plugin folder and line:column where known.
   */
  problems: z.array(Problem),
});
export type SaveOutcome = z.infer<typeof SaveOutcome>;

export const PluginFiles = z.strictObject({
  name: z.string(),
  source: z.enum(["global", "project"]),
  /** The plugin folder (absolute), for display. */
  dir: z.string(),
  /** The entry module, relative to the folder. */
  entry: z.string(),
  files: z.array(z.strictObject({ path: z.string(), size: z.number() })),
  /** What is wrong right now (as SaveOutcome's problems). */
  problems: z.array(Problem),
});
export type PluginFiles = z.infer<typeof PluginFiles>;

export const PluginTemplate = z.strictObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
});
export type PluginTemplate = z.infer<typeof PluginTemplate>;

export const LogLine = z.strictObject({
  at: z.string(),
  level: z.enum(["debug", "log", "info", "warn", "error"]),
  text: z.string(),
});
export type LogLine = z.infer<typeof LogLine>;

export const ConfigField = z.strictObject({
  key: z.string(),
  type: z.enum(["boolean", "number", "string", "list", "json"]),
  value: z.unknown(),
  effective: z.unknown(),
  overridden: z.boolean(),
});
export type ConfigField = z.infer<typeof ConfigField>;

export const RecordedTurn = z.strictObject({
  index: z.number().int().nonnegative(),
  text: z.string(),
  at: z.string(),
});

export const RequestView = z.strictObject({
  system: z.string(),
  messages: z.array(
    z.strictObject({ role: z.string(), content: z.string(), source: z.string().optional() }),
  ),
  tools: z.array(z.strictObject({ name: z.string(), description: z.string() })),
  notices: z.array(z.string()),
});

export const ReplayResult = z.strictObject({
  sessionId: z.string(),
  turn: z.number(),
  baseline: z.enum(["previous", "without"]),
  before: RequestView,
  after: RequestView,
  beforeText: z.string(),
  afterText: z.string(),
  ms: z.number(),
});
export type ReplayResult = z.infer<typeof ReplayResult>;

const named = { name: PluginName };

export const EDITOR_CALLS = {
  /** The plugin's editable files (no node_modules or hidden folders) and its current problems. */
  "editor/files": { request: z.strictObject(named), response: PluginFiles },
  "editor/read": {
    request: z.strictObject({ ...named, path: FilePath }),
    response: z.strictObject({ content: z.string() }),
  },
  /** Save: writes the file, waits for the hot reload it causes, and reports it. */
  "editor/write": {
    request: z.strictObject({ ...named, path: FilePath, content: z.string() }),
    response: SaveOutcome,
  },
  "editor/create": {
    request: z.strictObject({ ...named, path: FilePath, content: z.string().default("") }),
    response: SaveOutcome,
  },
  "editor/rename": {
    request: z.strictObject({ ...named, from: FilePath, to: FilePath }),
    response: SaveOutcome,
  },
  "editor/delete": {
    request: z.strictObject({ ...named, path: FilePath }),
    response: SaveOutcome,
  },
  "editor/templates": {
    request: z.undefined(),
    response: z.strictObject({ templates: z.array(PluginTemplate) }),
  },
  /** A new plugin from a template, in the global or the project plugins folder; loaded at once. */
  "editor/newPlugin": {
    request: z.strictObject({
      template: z.string().min(1).max(100),
      name: z.string().min(1).max(100),
      scope: z.enum(["global", "project"]),
    }),
    response: z.strictObject({ name: z.string(), entry: z.string(), outcome: SaveOutcome }),
  },
  /** The plugin's recent log lines; this client then gets `plugins/log` for it until unwatched. */
  "editor/watchLog": {
    request: z.strictObject(named),
    response: z.strictObject({ lines: z.array(LogLine) }),
  },
  "editor/unwatchLog": { request: z.strictObject(named), response: z.undefined() },
  /** The workspace's sessions and the prompts recorded in one (default: the latest session). */
  "editor/recordedTurns": {
    request: z.strictObject({ sessionId: z.string().min(1).optional() }),
    response: z.strictObject({
      sessions: z.array(
        z.strictObject({ id: z.string(), title: z.string(), updatedAt: z.string() }),
      ),
      sessionId: z.string().nullable(),
      turns: z.array(RecordedTurn),
    }),
  },
  /** What the model would receive for a recorded turn, before and after the latest save. */
  "editor/replay": {
    request: z.strictObject({
      ...named,
      sessionId: z.string().min(1),
      turn: z.number().int().nonnegative(),
    }),
    response: ReplayResult,
  },
  /** Writes `disabled:` in plugin.yaml; the hot reload applies it. */
  "plugins/setEnabled": {
    request: z.strictObject({ ...named, enabled: z.boolean() }),
    response: SaveOutcome,
  },
  /** plugin.yaml's `config:` as form fields (typed by their values) and what the plugin gets. */
  "plugins/config": {
    request: z.strictObject(named),
    response: z.strictObject({ fields: z.array(ConfigField) }),
  },
  /** New values for existing keys, each of its field's type; written to plugin.yaml. */
  "plugins/saveConfig": {
    request: z.strictObject({ ...named, values: z.record(z.string(), z.unknown()) }),
    response: SaveOutcome,
  },
} as const;

export const EDITOR_EVENTS = {
  /** A line of a plugin's log, to the clients watching it (`editor/watchLog`). */
  "plugins/log": z.strictObject({ name: z.string(), line: LogLine }),
} as const;
