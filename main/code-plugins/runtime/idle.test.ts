/**
 * Idle plugins: a `stateless: true` plugin's sandbox is released after a while without calls and
 * comes back, fresh, at its next call; every other plugin keeps its sandbox (and its state).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import { Contributions } from "../../contributions/contributions.ts";
import { SANDBOX_BACKENDS } from "../../sandbox/backends.ts";
import type { HookContexts } from "../../turn/hooks/types.ts";
import { tempDir, waitFor } from "../loader/testing.ts";
import { createPluginRuntime } from "../setup.ts";

const COUNTER = `
let calls = 0;
export function beforeChat() { calls++; return { notice: String(calls) }; }`;

/** Long enough that a loaded 2-core machine never releases a sandbox between two awaited calls. */
const IDLE_MS = 1_000;

for (const backend of SANDBOX_BACKENDS) {
  describe(`[${backend}]`, () => {
    test("a stateless plugin's sandbox is released when idle and recreated at its next call", async () => {
      const dir = tempDir("islet-idle-");
      dir.write({
        "home/plugins/kept/plugin.yaml": "description: keeps a count\n",
        "home/plugins/kept/index.js": COUNTER,
        "home/plugins/light/plugin.yaml": "description: stateless\nstateless: true\n",
        "home/plugins/light/index.js": COUNTER,
      });
      const runtime = await createPluginRuntime({
        homes: resolveHomes({ home: dir.path("home"), workdir: dir.root }),
        flags: { pluginRuntime: backend },
        env: {},
        registrar: new Contributions().registrar(),
        contextFallback: () => {
          throw new Error("no plugin tools here");
        },
        warn: () => {},
        idleReleaseMs: IDLE_MS,
      });
      const ctx = { session: { id: "s1" } } as unknown as HookContexts["beforeChat"];
      const notices = async () => {
        const out: Record<string, string> = {};
        for (const handler of runtime.handlers("beforeChat")) {
          const run = await handler.invoke(ctx);
          assert.equal(run.status, "ok", JSON.stringify(run));
          if (run.status === "ok") out[handler.source] = String(run.result?.notice);
        }
        return out;
      };
      try {
        assert.deepEqual(await notices(), { kept: "1", light: "1" });
        assert.deepEqual(await notices(), { kept: "2", light: "2" });
        const light = runtime.get("light")!.plugin;
        const kept = runtime.get("kept")!.plugin;
        await waitFor(() => light.idle, IDLE_MS * 20);
        assert.equal(light.heapUsed(), 0, "its sandbox is gone");
        assert.equal(kept.idle, false);
        assert.ok(
          kept.heapUsed() > 0,
          "a plugin that did not declare itself stateless keeps its sandbox",
        );
        // The next call brings it back as a fresh sandbox: its module state starts over.
        assert.deepEqual(await notices(), { kept: "3", light: "1" });
        assert.equal(light.idle, false);
        assert.equal(light.status, "active");
        assert.equal(light.restarts, 0, "a release is not a restart");
        assert.equal(light.totalFaults, 0);
      } finally {
        await runtime.dispose();
        dir.remove();
      }
    });
  });
}
