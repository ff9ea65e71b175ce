import { test } from "node:test";
import assert from "node:assert/strict";
import { DEFAULT_OLLAMA_WINDOW, OllamaProvider, parseParameterSize } from "./ollama.ts";
import { ProviderError } from "./types.ts";
import { startFakeOllama } from "./testing/fake-ollama.ts";
import { collect, joined, READ_TOOL, request, sampleConversation } from "./testing/collect.ts";

async function failure(p: OllamaProvider, model = "qwen3:8b"): Promise<ProviderError> {
  try {
    await collect(p.chat(request(model)));
  } catch (err) {
    assert.ok(err instanceof ProviderError, `expected ProviderError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected the call to fail");
}

test("ollama: thinking, text, usage from counts, done", async () => {
  const srv = await startFakeOllama([
    { thinking: ["Let me ", "see"], text: ["Hel", "lo ✓"], usage: { input: 30, output: 4 } },
  ]);
  try {
    const p = new OllamaProvider({ baseUrl: srv.url });
    const events = joined(await collect(p.chat(request("qwen3:8b", { thinking: "medium" }))));
    assert.deepEqual(events, [
      { type: "thinking", text: "Let me see" },
      { type: "text", text: "Hello ✓" },
      { type: "usage", inputTokens: 30, outputTokens: 4 },
      { type: "done", stopReason: "stop" },
    ]);
    assert.equal((srv.chatRequests[0].body as { think?: unknown }).think, true);
  } finally {
    await srv.close();
  }
});

test("ollama: whole tool calls with object arguments get ids; stop becomes tool_calls", async () => {
  const srv = await startFakeOllama([
    {
      toolCalls: [
        { name: "Read", arguments: { path: "a.ts" } },
        { name: "Glob", arguments: { pattern: "**/*.md" } },
        { id: "call_given", name: "Read", arguments: { path: "b.ts" } },
      ],
    },
  ]);
  try {
    const events = await collect(
      new OllamaProvider({ baseUrl: srv.url }).chat(request("m", { tools: [READ_TOOL] })),
    );
    const calls = events.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    assert.equal(calls.length, 3);
    assert.deepEqual(
      calls.map((c) => [c.name, c.arguments]),
      [
        ["Read", { path: "a.ts" }],
        ["Glob", { pattern: "**/*.md" }],
        ["Read", { path: "b.ts" }],
      ],
    );
    assert.match(calls[0].id, /^call_/);
    assert.notEqual(calls[0].id, calls[1].id);
    assert.equal(calls[2].id, "call_given");
    assert.deepEqual(events.at(-1), { type: "done", stopReason: "tool_calls" });
  } finally {
    await srv.close();
  }
});

test("ollama: request body: messages, tools, think level for gpt-oss, num_ctx", async () => {
  const srv = await startFakeOllama([{ text: ["ok"] }]);
  try {
    const p = new OllamaProvider({ baseUrl: srv.url, contextLength: 32768 });
    await collect(
      p.chat({
        model: "gpt-oss:20b",
        system: "Sys",
        messages: sampleConversation(),
        tools: [READ_TOOL],
        thinking: "high",
        maxTokens: 512,
      }),
    );
    assert.deepEqual(srv.chatRequests[0].body, {
      model: "gpt-oss:20b",
      messages: [
        { role: "system", content: "Sys" },
        { role: "user", content: "Read a and b" },
        {
          role: "assistant",
          content: "Reading both.",
          thinking: "I should read them.",
          tool_calls: [
            { function: { name: "Read", arguments: { path: "a" } } },
            { function: { name: "Read", arguments: { path: "b" } } },
          ],
        },
        { role: "tool", content: "contents of a", tool_name: "Read" },
        { role: "tool", content: "no such file: b", tool_name: "Read" },
        { role: "assistant", content: "a says hi; b is missing." },
        { role: "user", content: "Thanks" },
      ],
      stream: true,
      tools: [{ type: "function", function: READ_TOOL }],
      think: "high",
      options: { num_ctx: 32768, num_predict: 512 },
    });
  } finally {
    await srv.close();
  }
});

test("ollama: a model that cannot think is asked again without think", async () => {
  const srv = await startFakeOllama([
    { error: { status: 400, message: '"llama3.2:3b" does not support thinking' } },
    { text: ["fine"] },
  ]);
  try {
    const events = await collect(
      new OllamaProvider({ baseUrl: srv.url }).chat(request("llama3.2:3b", { thinking: "low" })),
    );
    assert.deepEqual(events[0], { type: "text", text: "fine" });
    assert.equal((srv.chatRequests[1].body as { think?: unknown }).think, undefined);
  } finally {
    await srv.close();
  }
});

test("ollama: errors: missing model, context, server, mid-stream, truncated, refused", async () => {
  const srv = await startFakeOllama([
    { error: { status: 404, message: 'model "qwen3:8b" not found, try pulling it first' } },
    { error: { status: 400, message: "the input length exceeds the context length" } },
    { error: { status: 500 } },
    { error: { status: 401, message: "unauthorized" } },
    { error: { status: 429, message: "too many requests", headers: { "retry-after": "3" } } },
    {
      text: ["par"],
      streamError: { message: "an error was encountered while running the model: unexpected EOF" },
    },
    { text: ["par"], truncate: true },
  ]);
  const p = new OllamaProvider({ baseUrl: srv.url });
  try {
    const missing = await failure(p);
    assert.equal(missing.errorType, "model_unavailable");
    assert.match(
      missing.message,
      /^ollama: model "qwen3:8b" is not available \(404\).*ollama pull qwen3:8b/,
    );
    assert.equal((await failure(p)).errorType, "context_exhausted");
    assert.equal((await failure(p)).errorType, "server");
    assert.equal((await failure(p)).errorType, "auth");
    const rate = await failure(p);
    assert.deepEqual([rate.errorType, rate.retryAfterMs], ["rate_limit", 3000]);
    const mid = await failure(p);
    assert.match(mid.message, /unexpected EOF/);
    assert.equal((await failure(p)).errorType, "network");
  } finally {
    await srv.close();
  }
  assert.equal((await failure(p)).errorType, "network");
});

test("ollama: abort mid-stream", async () => {
  const srv = await startFakeOllama([{ text: ["a", "b"], hang: true }]);
  try {
    const controller = new AbortController();
    const p = new OllamaProvider({ baseUrl: srv.url });
    await assert.rejects(
      (async () => {
        for await (const ev of p.chat(request("m", { signal: controller.signal }))) {
          if (ev.type === "text") controller.abort();
        }
      })(),
      { name: "AbortError" },
    );
  } finally {
    await srv.close();
  }
});

test("ollama: listModels from /api/tags; modelInfo from /api/show", async () => {
  const srv = await startFakeOllama([], {
    models: [
      {
        name: "qwen3:8b",
        size: 5_200_000_000,
        family: "qwen3",
        parameterCount: 8190735360,
        contextLength: 40960,
        capabilities: ["completion", "tools", "thinking"],
      },
      {
        name: "tiny:1b",
        family: "llama",
        parameterSize: "1.2B",
        contextLength: 131072,
        parameters: 'num_ctx 8192\nstop "<|eot_id|>"',
        capabilities: ["completion"],
      },
    ],
  });
  try {
    const p = new OllamaProvider({ baseUrl: srv.url });
    assert.deepEqual(await p.listModels(), [
      { name: "qwen3:8b", size: 5_200_000_000 },
      { name: "tiny:1b", size: 4_900_000_000 },
    ]);
    assert.deepEqual(await p.modelInfo("qwen3:8b"), {
      name: "qwen3:8b",
      family: "qwen3",
      parameterCount: 8190735360,
      // The model allows 40960; without num_ctx anywhere the window is capped (and requested).
      contextLength: DEFAULT_OLLAMA_WINDOW,
      capabilities: ["completion", "tools", "thinking"],
    });
    assert.deepEqual(await p.modelInfo("tiny:1b"), {
      name: "tiny:1b",
      family: "llama",
      parameterCount: 1_200_000_000,
      contextLength: 8192,
      capabilities: ["completion"],
    });
    await assert.rejects(p.modelInfo("nope"), { errorType: "model_unavailable" });
  } finally {
    await srv.close();
  }
});

test("ollama: parameter sizes", () => {
  assert.equal(parseParameterSize("8.0B"), 8e9);
  assert.equal(parseParameterSize("270M"), 2.7e8);
  assert.equal(parseParameterSize("1.5T"), 1.5e12);
  assert.equal(parseParameterSize(undefined), 0);
});

test("ollama: the window learned from /api/show is requested as num_ctx", async () => {
  const srv = await startFakeOllama([{ text: ["a"] }, { text: ["b"] }], {
    models: [
      { name: "big:8b", contextLength: 131072, capabilities: ["completion", "tools"] },
      {
        name: "set:1b",
        contextLength: 131072,
        parameters: "num_ctx 4096",
        capabilities: ["completion"],
      },
    ],
  });
  try {
    const p = new OllamaProvider({ baseUrl: srv.url });
    await p.modelInfo("big:8b");
    await p.modelInfo("set:1b");
    await collect(p.chat(request("big:8b")));
    await collect(p.chat(request("set:1b")));
    const windows = srv.chatRequests.map(
      (r) => (r.body as { options: { num_ctx: number } }).options.num_ctx,
    );
    assert.deepEqual(windows, [DEFAULT_OLLAMA_WINDOW, 4096]);
  } finally {
    await srv.close();
  }
});
