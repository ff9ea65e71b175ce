/** Hot reload through the real file watcher. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ReloadReport } from "./runtime.ts";
import { startPluginHarness } from "../../engine/testing.ts";

/** The first reload batch from now on that satisfies `done` (editors and this test write in several steps). */
function nextReload(
  reports: ReloadReport[][],
  done: (r: ReloadReport[]) => boolean = () => true,
): Promise<ReloadReport[]> {
  const seen = reports.length;
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const poll = setInterval(() => {
      const hit = reports.slice(seen).find(done);
      if (hit) {
        clearInterval(poll);
        resolve(hit);
      } else if (Date.now() - started > 5000) {
        clearInterval(poll);
        reject(new Error("no reload within 5 s"));
      }
    }, 5);
  });
}

test("saving a plugin file reloads it; a broken save keeps the last good version serving", async () => {
  const h = await startPluginHarness({
    plugins: { live: { code: `export function beforeChat() { return { notice: "v1" }; }` } },
    script: Array.from({ length: 3 }, () => ({ text: ["ok"] })),
  });
  const reports: ReloadReport[][] = [];
  try {
    await h.engine.watchPlugins((r) => reports.push(r));
    await h.conversation.submit("a");

    let reloaded = nextReload(reports, (batch) => batch.some((r) => r.name === "live"));
    await h.write("live", { code: `export function beforeChat() { return { notice: "v2" }; }` });
    assert.deepEqual(
      (await reloaded).map((r) => [r.name, r.ok]),
      [["live", true]],
    );
    await h.conversation.submit("b");

    reloaded = nextReload(reports, (batch) => batch.some((r) => r.name === "live" && !r.ok));
    await h.write("live", { code: `export function beforeChat() { return { notice: ` });
    const [broken] = await reloaded;
    assert.equal(broken.ok, false);
    assert.match(broken.error ?? "", /index\.ts:\d+:\d+/);
    await h.conversation.submit("c");
    assert.deepEqual(
      h.of("notice").map((n) => n.text),
      ["v1", "v2", "v2"],
    );

    // A new plugin folder appears and is picked up.
    reloaded = nextReload(reports, (batch) => batch.some((r) => r.name === "newcomer" && r.ok));
    await h.write("newcomer", {
      code: `export function afterResponse() { return { notice: "new" }; }`,
    });
    const added = await reloaded;
    assert.ok(added.some((r) => r.name === "newcomer" && r.ok));
  } finally {
    await h.close();
  }
});
