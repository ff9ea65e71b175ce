/**
 * Closing the plugin runtime while plugins load: dispose waits for the loads under way, and what
 * they made is disposed rather than left running (or left half made in isolated-vm's threads,
 * which can abort the process when it exits).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import { Contributions } from "../../contributions/contributions.ts";
import { tempDir } from "../loader/testing.ts";
import { createPluginRuntime } from "../setup.ts";

test("dispose waits for a reload under way, and nothing it loaded stays alive", async () => {
  const dir = tempDir("islet-close-load-");
  const files: Record<string, string> = {};
  for (const name of ["a", "b", "c", "d"]) {
    files[`home/plugins/${name}/plugin.yaml`] = "description: loads\n";
    files[`home/plugins/${name}/index.js`] =
      "export function beforeChat() { return { notice: 'hi' }; }";
  }
  dir.write(files);
  const runtime = await createPluginRuntime({
    homes: resolveHomes({ home: dir.path("home"), workdir: dir.root }),
    flags: { pluginRuntime: "isolated-vm" },
    env: {},
    registrar: new Contributions().registrar(),
    contextFallback: () => {
      throw new Error("no plugin tools here");
    },
    warn: () => {},
  });
  try {
    const loaded = runtime.names().map((name) => runtime.get(name)!.plugin);
    assert.equal(loaded.length, 4);
    let reloadSettled = false;
    const reload = runtime.reloadAll().finally(() => (reloadSettled = true));
    await runtime.dispose();
    assert.ok(reloadSettled, "the reload under way finished before dispose returned");
    const reports = await reload;
    for (const report of reports) assert.equal(report.ok, false, JSON.stringify(report));
    assert.deepEqual(runtime.names(), [], "nothing joined the closed runtime");
    for (const plugin of loaded) assert.equal(plugin.heapUsed(), 0, `${plugin.name} is disposed`);
  } finally {
    await runtime.dispose();
    dir.remove();
  }
});
