/**
 * What a plugin contributes is layered over what was there before it: when the plugin goes away
 * (folder deleted, reloaded without the tool or command), whatever it shadowed serves again. Real
 * engine, real isolates, once per sandbox backend.
 */
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import { SANDBOX_BACKENDS } from "../../sandbox/backends.ts";
import { startPluginHarness as startHarness, type PluginHarness } from "../../engine/testing.ts";

const readOverride = (label: string) => ({
  yaml: "override: true\n",
  code: `
  export function schema() {
    return { name: "Read", description: "${label} Read", parameters: { type: "object", properties: { path: { type: "string", description: "file" } }, required: ["path"] } };
  }
  export function execute(ctx, args) { return "${label} read " + args.path; }`,
});

const helloCommand = (label: string) => ({
  code: `
  export function command() { return { name: "hello", description: "Says who serves." }; }
  export function executeCommand() { return { output: "hello from ${label}" }; }`,
});

const readCall = { toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }] };

async function readResult(h: PluginHarness): Promise<string> {
  const before = h.of("tool_result").length;
  await h.conversation.submit("read notes.txt");
  const results = h.of("tool_result");
  assert.equal(results.length, before + 1);
  return results[before].output;
}

async function command(h: PluginHarness, text: string): Promise<string> {
  const r = await h.conversation.submit(text);
  assert.ok(r.kind === "command");
  return r.output;
}

for (const backend of SANDBOX_BACKENDS) {
  describe(`[${backend}]`, () => {
    const startPluginHarness = (opts: Parameters<typeof startHarness>[0]) =>
      startHarness({ ...opts, flags: { pluginRuntime: backend, ...opts.flags } });

    test("a Read override stacks on the built-in; removing the plugin gives the built-in back", async () => {
      const h = await startPluginHarness({
        plugins: { a_reader: readOverride("A"), b_reader: readOverride("B") },
        script: Array.from({ length: 5 }, () => [readCall, { text: ["ok"] }]).flat(),
      });
      try {
        await writeFile(path.join(h.workdir, "notes.txt"), "the real notes\n");
        // Overrides stack in load order (alphabetical): the last one serves.
        assert.equal(await readResult(h), "B read notes.txt");
        await rm(path.join(h.pluginsDir, "b_reader"), { recursive: true });
        const found = await h.engine.plugins!.discover();
        assert.deepEqual(
          found.found.map((s) => s.name),
          ["a_reader"],
        );
        assert.equal(await readResult(h), "B read notes.txt", "discovering loads nothing");
        assert.match(await command(h, "/reload"), /Reloaded 1 of 1/);
        assert.equal(await readResult(h), "A read notes.txt", "the override beneath serves");
        await rm(path.join(h.pluginsDir, "a_reader"), { recursive: true });
        assert.match(await command(h, "/reload"), /Reloaded 0 of 0/);
        assert.equal(h.engine.tools.get("Read")?.source, "builtin");
        assert.match(await readResult(h), /1\s+the real notes/, "the built-in reads the file");
        assert.deepEqual(h.engine.tools.names().slice(0, 2), ["Read", "Write"], "same place");
      } finally {
        await h.close();
      }
    });

    test("a plugin reloaded without its Read override (hot reload) gives the built-in back", async () => {
      const h = await startPluginHarness({
        plugins: { reader: readOverride("plugin") },
        script: [readCall, { text: ["ok"] }, readCall, { text: ["ok"] }],
      });
      try {
        await writeFile(path.join(h.workdir, "notes.txt"), "line one\n");
        assert.equal(await readResult(h), "plugin read notes.txt");
        await h.write("reader", {
          code: `export function beforeChat() { return { notice: "no tool any more" }; }`,
        });
        const reports = await h.engine.plugins!.reloadChanged([
          path.join(h.pluginsDir, "reader", "index.ts"),
        ]);
        assert.deepEqual(
          reports.map((r) => [r.name, r.ok]),
          [["reader", true]],
        );
        assert.match(await readResult(h), /1\s+line one/);
        assert.deepEqual(new Set(h.of("notice").map((n) => n.text)), new Set(["no tool any more"]));
      } finally {
        await h.close();
      }
    });

    test("a command shadowed by another plugin's serves again when that plugin goes away", async () => {
      const h = await startPluginHarness({
        plugins: { alpha: helloCommand("alpha"), beta: helloCommand("beta") },
      });
      try {
        const first = await command(h, "/hello");
        const [serving, shadowed] = first.endsWith("alpha") ? ["alpha", "beta"] : ["beta", "alpha"];
        // Hot reload: only the removed plugin's folder changed, the other one is not rebuilt.
        await rm(path.join(h.pluginsDir, serving), { recursive: true });
        await h.engine.plugins!.reloadChanged([path.join(h.pluginsDir, serving)]);
        assert.equal(await command(h, "/hello"), `hello from ${shadowed}`);
        await rm(path.join(h.pluginsDir, shadowed), { recursive: true });
        await h.engine.plugins!.reloadChanged([path.join(h.pluginsDir, shadowed)]);
        await assert.rejects(h.conversation.submit("/hello"), /unknown command \/hello/);
      } finally {
        await h.close();
      }
    });

    test("a plugin command shadowed by a built-in is reported and never replaces it", async () => {
      const h = await startPluginHarness({
        plugins: {
          stats: {
            code: `export function command() { return { name: "stats", description: "mine" }; }
            export function executeCommand() { return { output: "plugin stats" }; }`,
          },
        },
      });
      try {
        assert.ok(
          h.warnings.some((w) => /stats: command \/stats is shadowed by a builtin/.test(w)),
        );
        await rm(path.join(h.pluginsDir, "stats"), { recursive: true });
        await command(h, "/reload");
        assert.match(await command(h, "/stats"), /turns 0/);
      } finally {
        await h.close();
      }
    });
  });
}
