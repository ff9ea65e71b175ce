/**
 * The app settings file is electron-store's: a file written by `conf` (what electron-store wraps,
 * usable under plain Node) reads here, and what this store writes `conf` reads back, with its own
 * bookkeeping kept.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import Conf from "conf";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { appSettingsFile, JsonAppSettingsStore } from "./app-settings.ts";
import { formatProblem } from "../host/problem.ts";

test("settings.json is shared with electron-store's format both ways", async () => {
  const dir = tempDir("islet-app-settings-");
  try {
    const conf = () =>
      new Conf<Record<string, unknown>>({
        cwd: dir.root,
        configName: "settings",
        projectName: "islet",
      });
    conf().set({ theme: "dark", windowBounds: { width: 900 } });
    assert.equal(conf().path, appSettingsFile(dir.root));
    const warnings: string[] = [];
    const store = new JsonAppSettingsStore(dir.root, (p) => warnings.push(formatProblem(p)));
    assert.deepEqual(await store.read(), { theme: "dark", defaultAgent: "default", catalogs: [] });
    await store.update({ theme: "light", defaultAgent: "reviewer" });
    const back = conf();
    assert.equal(back.get("theme"), "light");
    assert.equal(back.get("defaultAgent"), "reviewer");
    assert.deepEqual(back.get("windowBounds"), { width: 900 }, "fields it does not know are kept");
    assert.deepEqual(warnings, []);
  } finally {
    dir.remove();
  }
});

test("a bad value falls back alone; a damaged file is kept aside, not overwritten", async () => {
  const dir = tempDir("islet-app-settings-");
  try {
    const file = appSettingsFile(dir.root);
    writeFileSync(file, JSON.stringify({ theme: "purple", defaultAgent: "reviewer" }));
    const warnings: string[] = [];
    const store = new JsonAppSettingsStore(dir.root, (p) => warnings.push(formatProblem(p)));
    assert.deepEqual(await store.read(), {
      theme: "system",
      defaultAgent: "reviewer",
      catalogs: [],
    });
    writeFileSync(file, "{ not json");
    assert.deepEqual(await store.read(), {
      theme: "system",
      defaultAgent: "default",
      catalogs: [],
    });
    assert.match(warnings.join("\n"), /settings\.json: not valid JSON/);
    await store.update({ theme: "dark" });
    assert.equal(readFileSync(`${file}.bad`, "utf8"), "{ not json");
    assert.equal((JSON.parse(readFileSync(file, "utf8")) as { theme: string }).theme, "dark");
  } finally {
    dir.remove();
  }
});

test("catalogs: a list of paths and URLs; entries that are not text are left out one by one", async () => {
  const dir = tempDir("islet-app-settings-");
  try {
    const file = appSettingsFile(dir.root);
    writeFileSync(
      file,
      JSON.stringify({
        catalogs: ["/srv/extra.yaml", 7, "", "https://example.com/c.yaml", "/srv/extra.yaml"],
      }),
    );
    const store = new JsonAppSettingsStore(dir.root, () => undefined);
    assert.deepEqual((await store.read()).catalogs, [
      "/srv/extra.yaml",
      "https://example.com/c.yaml",
    ]);
    await store.update({ catalogs: ["https://example.com/c.yaml"] });
    assert.deepEqual((JSON.parse(readFileSync(file, "utf8")) as { catalogs: string[] }).catalogs, [
      "https://example.com/c.yaml",
    ]);
    writeFileSync(file, JSON.stringify({ catalogs: "not a list" }));
    assert.deepEqual((await store.read()).catalogs, []);
  } finally {
    dir.remove();
  }
});
