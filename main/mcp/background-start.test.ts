/**
 * MCP servers start in the background when a conversation opens: a turn never waits for one still
 * starting (here one that never answers), a server ready before the turn has its tools offered,
 * and closing the engine stops the hung one at once.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { createEngine } from "../engine/bootstrap.ts";
import type { Engine } from "../engine/engine.ts";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { EVERYTHING } from "./testing/servers.ts";

const mcpJson = JSON.stringify({
  mcpServers: {
    everything: { command: process.execPath, args: [EVERYTHING, "stdio"] },
    // Starts, then never answers `initialize`: without a bound it would hold a turn 30 s.
    hung: { command: process.execPath, args: ["-e", "setInterval(() => {}, 1000)"] },
  },
});

function running(engine: Engine, name: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): boolean => engine.mcp.status(name).status === "running";
    if (check()) return resolve();
    const sub = engine.mcp.onStatus((s) => {
      if (s.name === name && check()) {
        sub.dispose();
        resolve();
      }
    });
  });
}

test(
  "a turn goes on while an MCP server is still starting; a ready one's tools are offered",
  { timeout: 90_000 },
  async () => {
    const dirs = tempDir("islet-mcp-bg-");
    dirs.write({ "work/.mcp.json": mcpJson });
    const model = await startFakeOpenAI([{ text: ["Hello."] }, { text: ["Again."] }]);
    const engine = await createEngine({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      env: {},
      plugins: {},
      questions: { ask: async () => "once" as never },
      flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
      warn: () => {},
    });
    try {
      assert.deepEqual(
        engine.mcp.list().map((s) => s.status),
        ["stopped", "stopped"],
      );
      const conv = await engine.open({ emit: () => {} });
      await running(engine, "everything");
      const started = Date.now();
      const result = await conv.submit("hi");
      const took = Date.now() - started;
      assert.ok(result.kind === "turn" && result.outcome.status === "done", JSON.stringify(result));
      // The hung server is still starting: the turn did not wait for it (its bound is 30 s).
      assert.equal(engine.mcp.status("hung").status, "starting");
      assert.ok(took < 20_000, `the turn took ${took} ms`);
      const offered = (
        model.chatRequests[0].body as { tools: { function: { name: string } }[] }
      ).tools.map((t) => t.function.name);
      assert.ok(offered.includes("mcp__everything__echo"), offered.join(","));
      assert.ok(!offered.some((n) => n.startsWith("mcp__hung__")), offered.join(","));
      await conv.close();
    } finally {
      const closing = Date.now();
      await engine.close();
      assert.ok(Date.now() - closing < 15_000, "closing stops a server still starting");
      await model.close();
      dirs.remove();
    }
  },
);
