/**
 * A real turn on the embedded runtime (provider `local`, a tiny random model that always calls a
 * tool) with real plugins in real sandboxes: the hooks see the local model's calls exactly as they
 * see any provider's, and what they change reaches the model and the tools.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AgentEvent, HookTraceEntry } from "../core/events.ts";
import { tempDir, type TempDir } from "../code-plugins/loader/testing.ts";
import { TEST_MODELS } from "../providers/local/testing/models.ts";
import { writeTinyGguf } from "../providers/local/testing/tiny-gguf.ts";
import { createEngine } from "./bootstrap.ts";
import type { Engine } from "./engine.ts";
import { formatProblem } from "../host/problem.ts";

type Trace = Extract<AgentEvent, { type: "hook_trace" }>;

const PROVIDERS = `default: { provider: embedded, model: caller }
providers:
  embedded: { type: local, threads: 1, gpu: false }
`;

describe("a turn on the embedded runtime", () => {
  let dirs: TempDir;
  let engine: Engine;

  before(async () => {
    dirs = tempDir("islet-local-turn-");
    dirs.write({
      "work/a.txt": "file a\n",
      "home/config/providers.yaml": PROVIDERS,
      "home/models/.keep": "",
      // Only Read is offered, so the model's calls are Read calls.
      "home/plugins/only-read/plugin.yaml": 'description: "Offers Read only"\n',
      "home/plugins/only-read/index.ts":
        'export function beforeChat(ctx) { return { disableTools: ctx.availableTools.filter((t) => t !== "Read") }; }\n',
      "home/plugins/redirect/plugin.yaml": 'description: "Reads a.txt instead"\n',
      "home/plugins/redirect/index.ts":
        'export function beforeToolExecution(ctx) { return { arguments: { path: "a.txt" } }; }\n',
      "home/plugins/filter/plugin.yaml": 'description: "Replaces Read output"\n',
      "home/plugins/filter/index.ts":
        'export function afterToolExecution(ctx) { return { output: "seen by " + ctx.tool.name + ": " + ctx.tool.result }; }\n',
    });
    await writeTinyGguf(dirs.path("home/models/caller.gguf"), TEST_MODELS.caller);
    engine = await createEngine({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      env: {},
      plugins: {},
      maxSteps: 2,
      warn: (p) => assert.fail(formatProblem(p)),
    });
  });

  after(async () => {
    await engine.close();
    dirs.remove();
  });

  it("plugins' hooks see the local model's tool calls and change what the tools and the model get", async () => {
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    const result = await conv.submit("read a file");
    assert.ok(result.kind === "turn");
    assert.equal(result.outcome.status, "max_steps", "the model calls a tool at every step");

    const traces = events.filter((e): e is Trace => e.type === "hook_trace");
    const entries = (timing: HookTraceEntry["timing"]) =>
      traces.flatMap((t) => t.entries.filter((e) => e.timing === timing));
    assert.ok(entries("beforeChat").some((e) => e.source === "only-read" && e.status === "ok"));
    const rewrites = entries("beforeToolExecution").filter((e) => e.source === "redirect");
    const filters = entries("afterToolExecution").filter((e) => e.source === "filter");
    assert.ok(rewrites.length >= 2, "one rewrite per call, at both steps");
    assert.equal(filters.length, rewrites.length);
    assert.ok(rewrites.every((e) => e.changed.includes("arguments")));

    const messages = conv.session.state.messages;
    const calls = messages.flatMap((m) => m.toolCalls ?? []);
    assert.ok(calls.length >= 2);
    for (const c of calls) {
      assert.equal(c.name, "Read");
      assert.equal(typeof c.arguments.path, "string", "history keeps what the model wrote");
    }
    const results = messages.filter((m) => m.role === "tool");
    assert.equal(results.length, calls.length);
    // The rewritten arguments were run (a.txt), and the filtered output is what the model got.
    for (const r of results) assert.match(r.content, /^seen by Read: .*file a/s);
    await conv.close();
  });
});
