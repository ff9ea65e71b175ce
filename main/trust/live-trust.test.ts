/**
 * Attack: a user stops trusting a folder (the app's Settings, `islet trust revoke`) while the
 * engine runs, and its project commands, hooks and MCP servers keep serving until a restart. A
 * recorded change takes them away live; a `--yes` run stays trusted through unrelated changes.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createEngine } from "../engine/bootstrap.ts";
import { YES_FOR_THIS_RUN } from "../host/questions.ts";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { TrustStore } from "./store.ts";

const PROJECT = {
  "home/.keep": "",
  "work/.islet/config/commands/deploy.md": "---\ndescription: Deploys\n---\nDeploy !`true`",
  "work/.islet/config/mcp/spy.yaml": "command: /bin/false\n",
  "work/.islet/config/hooks/p.json": JSON.stringify({
    hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] },
  }),
};

test("stopping trust while the engine runs takes the project's commands, hooks and MCP servers away", async () => {
  const dirs = tempDir("islet-live-trust-");
  dirs.write(PROJECT);
  await new TrustStore(dirs.path("home"), () => {}).record(dirs.path("work"), "trusted");
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    warn: () => {},
  });
  const servers = () => engine.extensions.mcpServers.names();
  const hooks = () => engine.declarative.shellHooks.files.map((f) => f.scope);
  try {
    assert.equal(engine.trust.trusted, true);
    assert.ok(engine.commands.get("deploy"));
    assert.deepEqual(servers(), ["spy"]);
    assert.deepEqual(hooks(), ["project"]);

    const now = await engine.setTrust(false);
    assert.equal(now.trusted, false);
    assert.equal(now.why, "you chose not to trust it");
    assert.match(now.heldBack.join("\n"), /commands from \.islet\/config\/commands\//);
    assert.equal(engine.commands.get("deploy"), undefined, "the command is gone without a restart");
    assert.deepEqual(servers(), [], "and the MCP server");
    assert.deepEqual(hooks(), [], "and the shell hooks");
    const records = await new TrustStore(dirs.path("home"), () => {}).list();
    assert.deepEqual(
      records.map((r) => r.decision),
      ["untrusted"],
      "remembered as the user's no",
    );

    assert.equal((await engine.setTrust(true)).trusted, true);
    assert.ok(engine.commands.get("deploy"), "trusting again brings it back");

    // `islet trust revoke` from a terminal: the record is gone, the watcher calls refreshTrust.
    await new TrustStore(dirs.path("home"), () => {}).revoke(dirs.path("work"));
    assert.equal(await engine.refreshTrust(), false);
    assert.equal(engine.commands.get("deploy"), undefined);
  } finally {
    await engine.close();
    dirs.remove();
  }
});

test("a --yes run stays trusted when the trust file changes for another folder, and narrows on a recorded no", async () => {
  const dirs = tempDir("islet-live-trust-yes-");
  dirs.write({ ...PROJECT, "other/.keep": "" });
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: {},
    questions: YES_FOR_THIS_RUN,
    warn: () => {},
  });
  try {
    assert.equal(engine.trust.why, "trusted for this run (--yes)");
    const store = new TrustStore(dirs.path("home"), () => {});
    await store.record(dirs.path("other"), "trusted");
    assert.equal(await engine.refreshTrust(), true);
    assert.ok(engine.commands.get("deploy"));
    await store.record(dirs.path("work"), "untrusted");
    assert.equal(await engine.refreshTrust(), false);
    assert.equal(engine.commands.get("deploy"), undefined);
  } finally {
    await engine.close();
    dirs.remove();
  }
});
