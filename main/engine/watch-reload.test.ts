import assert from "node:assert/strict";
import { test } from "node:test";
import { startPluginHarness } from "./testing.ts";
import type { ReloadReport } from "../code-plugins/runtime/runtime.ts";

test("hot reload keeps working after the plugins are loaded again", async () => {
  const h = await startPluginHarness({
    plugins: { greet: { code: `export function beforeChat() { return undefined; }` } },
  });
  try {
    const reports: ReloadReport[] = [];
    await h.engine.watchPlugins((r) => reports.push(...r));
    const again = await h.engine.loadPlugins({
      pluginRuntime: process.env.ISLET_TEST_PLUGIN_RUNTIME,
    });
    await h.write("greet", { code: `export function beforeChat() { return { notice: "v2" }; }` });
    const deadline = Date.now() + 20_000;
    while (!reports.some((r) => r.name === "greet" && r.ok) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(
      reports.some((r) => r.name === "greet" && r.ok),
      "the edit reached the new runtime",
    );
    assert.equal(h.engine.plugins, again);
  } finally {
    await h.close();
  }
});
