/**
 * The registry over real on-demand code plugins (isolates, files on disk): the model's listing is
 * cached until something changes, concurrent requests ask once, and an edited plugin.yaml under
 * an active plugin deactivates it (consent covered the old one).
 */
import assert from "node:assert/strict";
import path from "node:path";
import { test } from "node:test";
import type { Question, QuestionPort } from "../../host/questions.ts";
import { startPluginHarness, writePlugin, type PluginFiles } from "../../engine/testing.ts";

const lazy = (description: string): PluginFiles => ({
  yaml: `description: "${description}"\nactivation: on-demand\n`,
  code: `export function beforeChat() { return { notice: "lazy ran" }; }`,
});

function allowing(): { port: QuestionPort; asked: Question[] } {
  const asked: Question[] = [];
  const port = {
    ask: async (q: Question) => {
      asked.push(q);
      // Slow enough that a second request arrives while the first is still asked.
      await new Promise((r) => setTimeout(r, 50));
      return q.kind === "plugin-activation" ? "allow" : "deny";
    },
  } as QuestionPort;
  return { port, asked };
}

test("the listing is built once and served from cache until the set or a status changes", async () => {
  const { port } = allowing();
  const h = await startPluginHarness({
    plugins: { alpha: lazy("First one."), beta: lazy("Second one.") },
    questions: port,
  });
  try {
    const registry = h.engine.activation;
    const first = registry.fragmentText();
    const builds = registry.fragmentBuilds;
    assert.equal(registry.fragmentText(), first);
    // A refresh that finds the same plugins changes nothing.
    await registry.refresh();
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) registry.fragmentText();
    const perCallUs = ((performance.now() - started) * 1000) / 10_000;
    assert.equal(registry.fragmentBuilds, builds, "no rebuild without a change");
    assert.equal(
      first,
      [
        "Plugins (activate an inactive one with the activate_plugin tool and a reason when it would help; the user confirms; its tools are available from the next step):",
        "- alpha (inactive): First one.",
        "- beta (inactive): Second one.",
      ].join("\n"),
    );
    await registry.activate("alpha", { by: "user", reason: "" });
    assert.match(registry.fragmentText(), /- alpha \(active\): First one\./);
    assert.equal(registry.fragmentBuilds, builds + 1);
    console.log(`fragmentText (cached): ${perCallUs.toFixed(3)} µs per call`);
  } finally {
    await h.close();
  }
});

test("two requests for one plugin at once ask the user once", async () => {
  const { port, asked } = allowing();
  const h = await startPluginHarness({
    plugins: { alpha: lazy("First one.") },
    questions: port,
    script: [{ text: ["hello"] }],
  });
  try {
    const [a, b] = await Promise.all([
      h.engine.activation.activate("alpha", { by: "model", reason: "one" }),
      h.engine.activation.activate("alpha", { by: "model", reason: "two" }),
    ]);
    assert.equal(a.kind, "activated");
    assert.equal(b, a);
    assert.equal(asked.filter((q) => q.kind === "plugin-activation").length, 1);
    await h.conversation.submit("hi");
    assert.deepEqual(
      h.of("notice").map((n) => n.text),
      ["lazy ran"],
    );
  } finally {
    await h.close();
  }
});

test("an edited plugin.yaml under an active plugin deactivates it: consent covered the old one", async () => {
  const { port } = allowing();
  const h = await startPluginHarness({ plugins: { alpha: lazy("First one.") }, questions: port });
  try {
    await h.engine.activation.activate("alpha", { by: "user", reason: "" });
    await writePlugin(path.join(h.pluginsDir, "alpha"), lazy("Now it does more."));
    await h.engine.plugins?.reloadAll();
    await h.engine.activation.refresh();
    const [entry] = h.engine.activation.list();
    assert.equal(entry.status, "inactive");
    assert.equal(entry.description, "Now it does more.");
    assert.equal(h.engine.plugins?.get("alpha"), undefined);
  } finally {
    await h.close();
  }
});

test("a source that fails to list keeps what it had, with one warning; the others still list", async () => {
  const { port } = allowing();
  const h = await startPluginHarness({ plugins: { alpha: lazy("First one.") }, questions: port });
  try {
    await h.engine.activation.activate("alpha", { by: "user", reason: "" });
    const runtime = h.engine.plugins!;
    const list = runtime.onDemand.list.bind(runtime.onDemand);
    runtime.onDemand.list = () => {
      throw new Error("disk gone");
    };
    await h.engine.activation.refresh();
    runtime.onDemand.list = list;
    assert.equal(h.engine.activation.list()[0].status, "active");
    assert.ok(h.warnings.includes("code-plugins: could not list its plugins: disk gone"));
  } finally {
    await h.close();
  }
});
