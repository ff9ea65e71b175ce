/**
 * The app's own settings (theme, the agent new chats start with) in `<global home>/settings.json`, in
 * electron-store's file format (one JSON object) so the desktop app (electron-store, in
 * main/electron/) and `islet serve` (JsonStore, here) read and write the same file. Settings the
 * engine reads live where the engine reads them (providers.yaml, features/plugins.yaml,
 * approvals.json); this file holds only what is the UI's.
 */
import path from "node:path";
import { z } from "zod";
import { JsonStore } from "./json-store.ts";
import type { ProblemSink } from "../host/problem.ts";

export const THEMES = ["system", "light", "dark"] as const;
export type Theme = (typeof THEMES)[number];

/**
 * Any JSON object: fields are checked one by one (withDefaults), so one bad value falls back
 * alone, and others (electron-store's own `__internal__`, newer versions' fields) are kept.
 */
export const AppSettingsFile = z.record(z.string(), z.unknown());
export type AppSettingsFile = z.infer<typeof AppSettingsFile>;

export interface AppSettings {
  theme: Theme;
  defaultAgent: string;
  /** Plugin-pack catalogs added to the default one: file paths and http(s) URLs, in order. */
  catalogs: string[];
}

export const APP_SETTINGS_DEFAULTS: AppSettings = {
  theme: "system",
  defaultAgent: "default",
  catalogs: [],
};

/** What both hosts provide; Electron-free so the engine and the bridge can use it. */
export interface AppSettingsStore {
  readonly file: string;
  read(): Promise<AppSettings>;
  update(patch: Partial<AppSettings>): Promise<AppSettings>;
}

export function appSettingsFile(globalHome: string): string {
  return path.join(globalHome, "settings.json");
}

/** Fills defaults over what the file holds (a field with a bad value falls back alone). */
export function withDefaults(data: unknown): AppSettings {
  const out: AppSettings = { ...APP_SETTINGS_DEFAULTS, catalogs: [] };
  const theme = z.enum(THEMES).safeParse((data as { theme?: unknown } | null)?.theme);
  if (theme.success) out.theme = theme.data;
  const agent = z
    .string()
    .min(1)
    .safeParse((data as { defaultAgent?: unknown } | null)?.defaultAgent);
  if (agent.success) out.defaultAgent = agent.data;
  // Each catalog on its own: a hand-edited entry that is not text is left out, not the list.
  const catalogs = (data as { catalogs?: unknown } | null)?.catalogs;
  if (Array.isArray(catalogs))
    for (const c of catalogs)
      if (typeof c === "string" && c.trim() !== "" && !out.catalogs.includes(c.trim()))
        out.catalogs.push(c.trim());
  return out;
}

/** `islet serve`'s store: the engine's JSON record file on the same path. */
export class JsonAppSettingsStore implements AppSettingsStore {
  readonly #store: JsonStore<AppSettingsFile>;

  constructor(globalHome: string, warn: ProblemSink) {
    this.#store = new JsonStore(appSettingsFile(globalHome), AppSettingsFile, () => ({}), warn);
  }

  get file(): string {
    return this.#store.file;
  }

  async read(): Promise<AppSettings> {
    return withDefaults(await this.#store.read());
  }

  async update(patch: Partial<AppSettings>): Promise<AppSettings> {
    return withDefaults(await this.#store.update((data) => ({ ...data, ...patch })));
  }
}
