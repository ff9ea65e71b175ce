/**
 * The desktop settings store (electron-store) under plain Node with the fake 'electron': the
 * theme reaches nativeTheme (native menus, dialogs and the page's colour scheme follow it), and a
 * damaged settings.json is kept aside instead of emptied.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { test } from "node:test";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { appSettingsFile } from "../config/app-settings.ts";
import { formatProblem } from "../host/problem.ts";

const fakeUrl = new URL("./testing/fake-electron.ts", import.meta.url).href;
registerHooks({
  resolve(specifier, context, next) {
    if (specifier === "electron") return { url: fakeUrl, shortCircuit: true };
    return next(specifier, context);
  },
});
const fake = await import("./testing/fake-electron.ts");
const { desktopSettingsStore } = await import("./settings-store.ts");
// electron-store asks for userData even when given its folder.
fake.probe.userData = tempDir("islet-user-data-").root;

test("the theme setting drives nativeTheme, at start and on every change", async () => {
  const dir = tempDir("islet-desktop-settings-");
  try {
    writeFileSync(appSettingsFile(dir.root), JSON.stringify({ theme: "dark" }));
    const store = desktopSettingsStore(dir.root, () => {});
    assert.equal(fake.nativeTheme.themeSource, "dark");
    await store.update({ theme: "light" });
    assert.equal(fake.nativeTheme.themeSource, "light");
    assert.equal((await store.read()).theme, "light");
  } finally {
    dir.remove();
  }
});

test("a damaged settings.json is kept as .bad and the app starts from the defaults", async () => {
  const dir = tempDir("islet-desktop-settings-");
  try {
    const file = appSettingsFile(dir.root);
    writeFileSync(file, "{ not json");
    const warnings: string[] = [];
    const store = desktopSettingsStore(dir.root, (p) => warnings.push(formatProblem(p)));
    assert.deepEqual(await store.read(), {
      theme: "system",
      defaultAgent: "default",
      catalogs: [],
    });
    assert.equal(readFileSync(`${file}.bad`, "utf8"), "{ not json");
    assert.match(warnings.join("\n"), /settings\.json: .*kept as .*settings\.json\.bad/);
    await store.update({ theme: "dark" });
    assert.equal((JSON.parse(readFileSync(file, "utf8")) as { theme: string }).theme, "dark");
  } finally {
    dir.remove();
  }
});
