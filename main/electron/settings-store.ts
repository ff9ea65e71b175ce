/**
 * The app's settings in the desktop app: electron-store on `<global home>/settings.json`, the
 * file `islet serve` reads and writes with the engine's own store (main/config/app-settings.ts).
 * electron-store imports electron, so it stays in main/electron/ (ENGINEERING.md risk 5).
 */
import ElectronStore from "electron-store";
import {
  appSettingsFile,
  withDefaults,
  type AppSettings,
  type AppSettingsStore,
} from "../config/app-settings.ts";

export function desktopSettingsStore(globalHome: string): AppSettingsStore {
  const store = new ElectronStore<Record<string, unknown>>({ cwd: globalHome, name: "settings" });
  return {
    file: appSettingsFile(globalHome),
    async read() {
      return withDefaults(store.store);
    },
    async update(patch: Partial<AppSettings>) {
      store.set(patch);
      return withDefaults(store.store);
    },
  };
}
