/** What extension sources contribute reaches conversations that are already open, and leaves with them. */
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { DEFAULT_AGENT } from "../agents/definition.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { createEngine } from "./bootstrap.ts";

test("prompt fragments, agents and MCP servers contributed after a conversation opened are seen by it", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-extensions-"));
  const srv = await startFakeOpenAI([{ text: ["one"] }, { text: ["two"] }, { text: ["three"] }]);
  try {
    const engine = await createEngine({
      home: path.join(root, "home"),
      workdir: root,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: srv.url, model: "m" },
      warn: () => {},
    });
    const conv = await engine.open({ emit: () => {} });
    const system = (i: number) =>
      (srv.chatRequests[i].body as { messages: { role: string; content: string }[] }).messages[0]
        .content;

    const source = engine.extensions.registrar();
    source.promptFragment({ source: "pack", text: "Always answer in haiku." });
    source.mcpServer({ name: "github", source: "config/mcp/github.yaml" });
    source.agent({ ...DEFAULT_AGENT, name: "poet", systemPrompt: "You are a poet." });
    await conv.submit("hi");
    assert.match(system(0), /Always answer in haiku\./);
    assert.deepEqual(conv.session.context().mcpServers, ["github"]);
    const switched = await conv.submit("/agent poet");
    assert.ok(switched.kind === "command", JSON.stringify(switched));
    await conv.submit("a poem");
    assert.match(system(1), /You are a poet\./);

    source.dispose();
    await conv.submit("/agent default");
    await conv.submit("plain");
    assert.doesNotMatch(system(2), /haiku/);
    assert.deepEqual(conv.session.context().mcpServers, []);
    await assert.rejects(conv.submit("/agent poet"), /poet/);
    await conv.close();
    await engine.close();
  } finally {
    await srv.close();
    await rm(root, { recursive: true, force: true });
  }
});
