/**
 * The app's settings in the desktop app: electron-store on `<global home>/settings.json`, the
 * file `islet serve` reads and writes with the engine's own store (main/config/app-settings.ts).
 * electron-store imports electron, so it stays in main/electron/ (ENGINEERING.md risk 5).
 */
import { renameSync } from "node:fs";
import { nativeTheme } from "electron";
import ElectronStore from "electron-store";
import {
  appSettingsFile,
  withDefaults,
  type AppSettings,
  type AppSettingsStore,
} from "../config/app-settings.ts";
import type { ProblemSink } from "../host/problem.ts";

type Store = ElectronStore<Record<string, unknown>>;

/**
 * electron-store would empty a file it cannot parse; like the engine's JsonStore, keep it aside
 * as `settings.json.bad` (the user's data is never destroyed) and start from the defaults.
 */
function openStore(globalHome: string, warn: ProblemSink): Store {
  const open = () =>
    new ElectronStore({ cwd: globalHome, name: "settings", clearInvalidConfig: false });
  try {
    return open();
  } catch (err) {
    const file = appSettingsFile(globalHome);
    renameSync(file, `${file}.bad`);
    warn({
      source: "settings",
      file,
      title: (err as Error).message,
      suggestion: `kept as ${file}.bad, using the defaults`,
    });
    return open();
  }
}

/** Native menus, dialogs and the page's prefers-color-scheme follow the app's theme setting. */
function applyTheme(settings: AppSettings): AppSettings {
  nativeTheme.themeSource = settings.theme;
  return settings;
}

export function desktopSettingsStore(globalHome: string, warn: ProblemSink): AppSettingsStore {
  const store = openStore(globalHome, warn);
  applyTheme(withDefaults(store.store));
  return {
    file: appSettingsFile(globalHome),
    async read() {
      return withDefaults(store.store);
    },
    async update(patch: Partial<AppSettings>) {
      store.set(patch);
      return applyTheme(withDefaults(store.store));
    },
  };
}
