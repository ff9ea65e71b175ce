/**
 * Seed compatibility for plugin commands: `hints` as a list (the Aura guide, seed 000) or a string
 * (the SDK reference, seed 002), and a command whose plugin failed to load says so instead of
 * "unknown command".
 */
import assert from "node:assert/strict";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startPluginHarness } from "./testing.ts";
import { createEngine } from "./bootstrap.ts";

const greet = (hints: string) => `export function command() {
  return { name: "greet", description: "Say hello to someone.", hints: ${hints} };
}
export function executeCommand(args) { return { output: "Hello, " + (args || "world") + "!" }; }
`;

test("a command's hints may be a list (seed 000) or a string (seed 002); both read as ghost text", async () => {
  const h = await startPluginHarness({
    plugins: {
      "greet-command": { code: greet(`["name"]`) },
      "deploy-command": {
        code: greet(`"[environment]"`).replace(/greet/g, "deploy"),
      },
      "pair-command": { code: greet(`["from", "[to]"]`).replace(/greet/g, "pair") },
    },
  });
  try {
    assert.deepEqual(h.warnings, []);
    assert.equal(h.engine.commands.get("greet")?.hints, "[name]");
    assert.equal(h.engine.commands.get("deploy")?.hints, "[environment]");
    assert.equal(h.engine.commands.get("pair")?.hints, "[from] [to]");
    const ran = await h.conversation.submit("/greet Ann");
    assert.equal(ran.kind === "command" && ran.output, "Hello, Ann!");
  } finally {
    await h.close();
  }
});

test("a command whose plugin failed to load names the plugin and why, not 'unknown command'", async () => {
  const h = await startPluginHarness({ plugins: { "greet-command": { code: greet(`["name"]`) } } });
  const { home, workdir } = h;
  // Closed by hand: h.close() would delete the home this test reuses.
  await h.conversation.close();
  await h.engine.close();
  await h.server.close();
  // The plugin breaks (an edit, between two runs): it registers nothing now.
  await writeFile(
    path.join(home, "plugins", "greet-command", "index.ts"),
    `${greet(`["name"]`)}\nexport function (`,
  );
  const engine = await createEngine({
    home,
    workdir,
    env: {},
    // Never called: commands do not reach the model.
    flags: { provider: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", model: "m" },
    plugins: {},
    warn: () => {},
  });
  try {
    assert.equal(engine.commands.get("greet"), undefined);
    const conversation = await engine.open({ emit: () => {} });
    await assert.rejects(
      conversation.submit("/greet Ann"),
      /^Error: \/greet comes from greet-command, which failed: .*index\.ts.*$/,
    );
    // A command nobody knows is still unknown, and says which broken plugin may hold it.
    await assert.rejects(
      conversation.submit("/nosuch"),
      /^Error: unknown command \/nosuch; \/help lists the commands$/,
    );
    assert.deepEqual(engine.plugins?.failedCommands(), [
      {
        name: "greet",
        plugin: "greet-command",
        error: engine.plugins?.get("greet-command")?.plugin.error?.split("\n")[0],
      },
    ]);
    await conversation.close();
  } finally {
    await engine.close();
    await rm(path.dirname(home), { recursive: true, force: true });
  }
});
