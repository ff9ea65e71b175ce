/**
 * The `local` provider against the real runtime process and node-llama-cpp, on tiny random
 * models (testing/models.ts): their text is noise, so these tests assert structure.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { makeMessage, type Message } from "../../core/message.ts";
import { ProviderError, type ChatRequest, type StreamEvent } from "../types.ts";
import type { LoadedInfo, TurnStats } from "./protocol.ts";
import { LocalProvider } from "./provider.ts";
import { LocalRuntime } from "./runtime-process.ts";
import { TEST_RUNTIME, writeTestModels, type ModelsFolder } from "./testing/models.ts";

describe("local provider", () => {
  let models: ModelsFolder;
  let runtime: LocalRuntime;
  let provider: LocalProvider;
  const turns: { stats: TurnStats; info: LoadedInfo }[] = [];

  before(async () => {
    models = await writeTestModels(["tiny", "endless", "thinker", "short"]);
    runtime = new LocalRuntime(TEST_RUNTIME);
    provider = new LocalProvider({
      modelsDir: models.dir,
      runtime,
      onStats: (stats, info) => turns.push({ stats, info }),
    });
  });
  after(async () => {
    await runtime.unload();
    await models.remove();
  });

  function request(
    model: string,
    messages: Message[],
    extra: Partial<ChatRequest> = {},
  ): ChatRequest {
    return { model, system: "You are a test.", messages, tools: [], maxTokens: 24, ...extra };
  }

  async function collect(req: ChatRequest): Promise<StreamEvent[]> {
    const out: StreamEvent[] = [];
    for await (const ev of provider.chat(req)) out.push(ev);
    return out;
  }

  it("lists the GGUF files of its models folder and reads their headers", async () => {
    const names = (await provider.listModels()).map((m) => m.name);
    assert.deepEqual(names, ["endless", "short", "thinker", "tiny"]);
    const info = await provider.modelInfo("tiny");
    assert.equal(info.family, "llama");
    assert.equal(info.contextLength, 4096, "the model's trained window, under the 16k default");
    assert.ok(info.parameterCount > 100_000);
  });

  it("streams an answer from its own process: text deltas, then usage, then done", async () => {
    const events = await collect(request("endless", [makeMessage("user", "Hello world")]));
    const texts = events.filter((e) => e.type === "text");
    assert.ok(texts.length >= 2, `${texts.length} text events`);
    assert.deepEqual(
      events.slice(-2).map((e) => e.type),
      ["usage", "done"],
    );
    const usage = events.at(-2);
    assert.ok(usage?.type === "usage" && usage.outputTokens === 24);
    assert.deepEqual(events.at(-1), { type: "done", stopReason: "length" });
    assert.ok(runtime.pid && runtime.pid !== process.pid, "generation runs in another process");
  });

  it("keeps the model loaded and reuses a conversation's cache: turn 2 evaluates only what is new", async () => {
    const history: Message[] = [makeMessage("user", "Tell me about the file you read.")];
    const pid = runtime.pid;
    const first = await collect(request("endless", history, { maxTokens: 40 }));
    const one = turns.at(-1)!;
    const answer = first.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
    history.push(makeMessage("assistant", answer), makeMessage("user", "And then?"));
    await collect(request("endless", history, { maxTokens: 10 }));
    const two = turns.at(-1)!;
    assert.equal(runtime.pid, pid, "the same runtime process");
    assert.equal(two.info.loadMs, 0, "the model was still loaded");
    const held = one.stats.promptTokens + one.stats.outputTokens;
    assert.ok(two.stats.promptTokens > held, "turn 2's prompt holds all of turn 1 and more");
    assert.ok(
      two.stats.evaluatedTokens < two.stats.promptTokens - one.stats.promptTokens,
      `evaluated ${two.stats.evaluatedTokens} of ${two.stats.promptTokens} (turn 1's prompt was ${one.stats.promptTokens})`,
    );
  });

  it("two conversations keep their own caches (a sub-agent does not evict its parent)", async () => {
    const a: Message[] = [makeMessage("user", "Conversation A: a long question about files")];
    const b: Message[] = [makeMessage("user", "Conversation B: another long question")];
    const answer = async (history: Message[]) => {
      const events = await collect(request("endless", history, { maxTokens: 20 }));
      history.push(
        makeMessage(
          "assistant",
          events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join(""),
        ),
        makeMessage("user", "Go on"),
      );
      return turns.at(-1)!;
    };
    const first = await answer(a);
    await answer(b);
    const again = await answer(a);
    assert.equal(again.info.sequences, 2, "a second context was added for B");
    // All of A's first prompt came from its cache (B did not overwrite it); what follows it was
    // evaluated (a noise answer's text does not always tokenize back to the tokens generated).
    assert.ok(
      again.stats.evaluatedTokens <= again.stats.promptTokens - first.stats.promptTokens,
      `A's turn 2 evaluated ${again.stats.evaluatedTokens} of ${again.stats.promptTokens} (turn 1's prompt: ${first.stats.promptTokens})`,
    );
  });

  it("Stop ends the call at once and the runtime stops generating", async () => {
    const controller = new AbortController();
    const req = request("endless", [makeMessage("user", "Go on forever")], {
      maxTokens: 100_000,
      signal: controller.signal,
    });
    let stoppedAt = 0;
    await assert.rejects(
      (async () => {
        for await (const ev of provider.chat(req)) {
          if (ev.type === "text" && !stoppedAt) {
            stoppedAt = performance.now();
            controller.abort();
          }
        }
      })(),
      { name: "AbortError" },
    );
    const ms = performance.now() - stoppedAt;
    // Generous for a loaded machine; bench/local-bench.ts measures it (goal: 100 ms).
    assert.ok(ms < 1000, `ended ${Math.round(ms)} ms after Stop`);
    // The runtime is free again: the next call answers promptly from the same process.
    const pid = runtime.pid;
    const next = await collect(
      request("endless", [makeMessage("user", "Hello")], { maxTokens: 4 }),
    );
    assert.deepEqual(next.at(-1), { type: "done", stopReason: "length" });
    assert.equal(runtime.pid, pid);
  });

  it("splits a leading <think> block into thinking events", async () => {
    const events = await collect(
      request("thinker", [makeMessage("user", "Think first")], { maxTokens: 8 }),
    );
    const thinking = events.flatMap((e) => (e.type === "thinking" ? [e.text] : [])).join("");
    const text = events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
    assert.equal(thinking, " the", "the leading block only");
    assert.match(text, /^Hello/, "the answer after it (the blank between belongs to neither)");
  });

  it("a conversation that does not fit the window is context_exhausted (the engine compacts)", async () => {
    const long = "word ".repeat(400);
    await assert.rejects(collect(request("short", [makeMessage("user", long)])), (err) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.errorType, "context_exhausted");
      assert.match(
        err.message,
        /^local: the conversation does not fit short's context window \(256 tokens\) — compact/,
      );
      assert.doesNotMatch(err.message, /\n/);
      return true;
    });
  });

  it("resolving the model (modelInfo) starts the runtime ahead of the first call, which then uses it", async () => {
    const early = new LocalRuntime({ ...TEST_RUNTIME, unloadAfterMs: 120_000 });
    const ahead = new LocalProvider({ modelsDir: models.dir, runtime: early });
    try {
      assert.equal(early.pid, undefined);
      await ahead.modelInfo("tiny");
      const pid = early.pid;
      assert.ok(pid, "started before any call");
      const events: StreamEvent[] = [];
      for await (const e of ahead.chat(request("tiny", [makeMessage("user", "hi")])))
        events.push(e);
      assert.equal(events.at(-1)?.type, "done");
      assert.equal(early.pid, pid, "the call used the process started ahead");
    } finally {
      await early.unload();
    }
  });

  it("a model that is not in the folder is one line naming the folder and the command", async () => {
    await assert.rejects(collect(request("qwen9", [makeMessage("user", "hi")])), (err) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.errorType, "model_unavailable");
      assert.equal(
        err.message,
        `local: model "qwen9" is not in ${models.dir} — download it with \`islet models pull qwen9\` (\`islet models list\` shows what is there)`,
      );
      return true;
    });
  });
});
