/**
 * Live tool output on a real engine: a real Bash command printing lines with pauses reaches the
 * host as `tool_output` events while it runs; only its `tool_result` is saved.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { AgentEvent } from "../turn/events.ts";
import { YES_FOR_THIS_RUN } from "../host/questions.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { createEngine } from "./bootstrap.ts";

test("a Bash command's lines arrive as tool_output while it runs, and are not saved", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-live-output-"));
  const workdir = path.join(root, "work");
  await mkdir(workdir, { recursive: true });
  const command = "echo first; sleep 1.5; echo second; sleep 1.5; echo third";
  const model = await startFakeOpenAI([
    { toolCalls: [{ name: "Bash", arguments: { command } }] },
    { text: ["ran it"] },
  ]);
  try {
    const engine = await createEngine({
      home: path.join(root, "home"),
      workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
      questions: YES_FOR_THIS_RUN,
      warn: () => {},
    });
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    const result = await conv.submit("run the command");
    assert.equal(result.kind === "turn" && result.outcome.status, "done");

    const live = events.filter((e) => e.type === "tool_output");
    const call = events.find((e) => e.type === "tool_call");
    const done = events.findIndex((e) => e.type === "tool_result");
    assert.ok(call?.type === "tool_call");
    assert.ok(live.length >= 2, `the output came in pieces: ${JSON.stringify(live)}`);
    for (const e of live) assert.equal(e.id, call.id);
    // The first line was sent on its own, long before the command ended.
    assert.match(live[0].text, /first/);
    assert.doesNotMatch(live[0].text, /third/);
    assert.ok(events.indexOf(live[0]) < done);
    assert.equal(live.map((e) => e.text).join(""), "first\nsecond\nthird\n");

    const history = await engine.history(conv.id);
    assert.ok(!history.some((e) => e.type === "tool_output"), "live output is not saved");
    const saved = history.find((e) => e.type === "tool_result");
    assert.ok(saved?.type === "tool_result");
    assert.match(saved.output, /first\nsecond\nthird/);
    await conv.close();
    await engine.close();
  } finally {
    await model.close();
    await rm(root, { recursive: true, force: true });
  }
});
