/**
 * Slash commands that do not reach the model are part of the conversation's history: their
 * prompt (`user_message`) and output (`command_output`) are emitted and saved, so a session
 * reopened by a new engine shows them; a failing command leaves its error.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { AgentEvent } from "../turn/events.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { createEngine } from "./bootstrap.ts";

test("/help and /agent are saved with their output and come back after a restart", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-command-history-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  await mkdir(path.join(home, "config", "agents"), { recursive: true });
  await mkdir(workdir, { recursive: true });
  await writeFile(path.join(home, "config", "agents", "reviewer.md"), "---\n---\nYou review.");
  const model = await startFakeOpenAI([]);
  const start = () =>
    createEngine({
      home,
      workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
      warn: () => {},
    });
  try {
    const engine = await start();
    const live: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => live.push(e) });
    const help = await conv.submit("/help");
    assert.equal(help.kind, "command");
    await conv.submit("/agent reviewer");
    await assert.rejects(conv.submit("/agent nobody"), /unknown agent/);
    await conv.close();
    await engine.close();

    const shown = (events: AgentEvent[]) =>
      events
        .filter((e) => e.type !== "done" && e.type !== "hook_trace")
        .map((e) => (e.type === "command_output" ? { ...e, output: e.output.split("\n")[0] } : e));
    const helpFirstLine = help.kind === "command" ? help.output.split("\n")[0] : "";
    const expected = [
      { type: "user_message", text: "/help" },
      { type: "command_output", name: "help", output: helpFirstLine },
      { type: "user_message", text: "/agent reviewer" },
      { type: "agent_switch", from: "default", to: "reviewer", reason: "user" },
      { type: "command_output", name: "agent", output: shownOutput(live, "agent") },
      { type: "user_message", text: "/agent nobody" },
      { type: "error", errorType: "", message: errorOf(live) },
    ];
    assert.deepEqual(shown(live), expected);
    assert.match(errorOf(live), /unknown agent "nobody"/);

    const again = await start();
    const saved = await again.history(conv.id);
    assert.deepEqual(shown(saved), expected);
    assert.equal(saved.filter((e) => e.type === "done").length, 3, "each command ended its turn");
    await again.close();
  } finally {
    await model.close();
    await rm(root, { recursive: true, force: true });
  }
});

function shownOutput(events: AgentEvent[], name: string): string {
  const e = events.find((x) => x.type === "command_output" && x.name === name);
  return e?.type === "command_output" ? e.output.split("\n")[0] : "";
}

function errorOf(events: AgentEvent[]): string {
  const e = events.find((x) => x.type === "error");
  return e?.type === "error" ? e.message : "";
}
