import { test } from "node:test";
import assert from "node:assert/strict";
import { OpenAIProvider } from "./openai.ts";
import { ProviderError, type StreamEvent } from "./types.ts";
import { startFakeOpenAI } from "./testing/fake-openai.ts";
import { collect, joined, READ_TOOL, request, sampleConversation } from "./testing/collect.ts";

function provider(url: string, apiKey?: string) {
  return new OpenAIProvider({
    name: "work",
    baseUrl: url,
    apiKey,
    apiKeyEnv: apiKey ? "OPENAI_API_KEY" : undefined,
  });
}

async function failure(p: OpenAIProvider, model = "m"): Promise<ProviderError> {
  try {
    await collect(p.chat(request(model)));
  } catch (err) {
    assert.ok(err instanceof ProviderError, `expected ProviderError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected the call to fail");
}

test("openai: streams text, usage and done", async () => {
  const srv = await startFakeOpenAI([
    { text: ["Hel", "lo ", "wörld 🌍"], usage: { input: 12, output: 3 } },
  ]);
  try {
    const events = await collect(provider(srv.url).chat(request("m")));
    assert.deepEqual(events, [
      { type: "text", text: "Hel" },
      { type: "text", text: "lo " },
      { type: "text", text: "wörld 🌍" },
      { type: "usage", inputTokens: 12, outputTokens: 3 },
      { type: "done", stopReason: "stop" },
    ]);
    assert.equal(srv.chatRequests[0].headers.authorization, undefined, "no key, no Authorization");
  } finally {
    await srv.close();
  }
});

for (const field of ["reasoning_content", "reasoning"] as const) {
  test(`openai: ${field} deltas become thinking events`, async () => {
    const srv = await startFakeOpenAI([{ thinking: ["Let me ", "think."], text: ["Done."] }], {
      reasoningField: field,
    });
    try {
      const events = joined(await collect(provider(srv.url).chat(request("m"))));
      assert.deepEqual(events.slice(0, 2), [
        { type: "thinking", text: "Let me think." },
        { type: "text", text: "Done." },
      ]);
    } finally {
      await srv.close();
    }
  });
}

test("openai: parallel tool calls assembled from fragments; bad JSON becomes an error call", async () => {
  const srv = await startFakeOpenAI([
    {
      text: ["Reading."],
      toolCalls: [
        { id: "call_1", name: "Read", arguments: { path: "src/ä.ts", limit: 20 }, fragments: 7 },
        { id: "call_2", name: "Grep", arguments: { pattern: 'a"b', path: "." }, fragments: 4 },
        { id: "call_3", name: "Read", arguments: '{"path": "x"', fragments: 2 },
      ],
    },
  ]);
  try {
    const events = await collect(provider(srv.url).chat(request("m", { tools: [READ_TOOL] })));
    const calls = events.filter((e) => e.type === "tool_call");
    assert.deepEqual(calls.slice(0, 2), [
      {
        type: "tool_call",
        call: { id: "call_1", name: "Read", arguments: { path: "src/ä.ts", limit: 20 } },
      },
      {
        type: "tool_call",
        call: { id: "call_2", name: "Grep", arguments: { pattern: 'a"b', path: "." } },
      },
    ]);
    const bad = calls[2] as Extract<StreamEvent, { type: "tool_call" }>;
    assert.deepEqual(bad.call, { id: "call_3", name: "Read", arguments: {} });
    assert.match(bad.error ?? "", /not valid JSON.*\{"path": "x"/);
    assert.deepEqual(events.at(-1), { type: "done", stopReason: "tool_calls" });
  } finally {
    await srv.close();
  }
});

test("openai: request body maps system, tool calls and tool results exactly", async () => {
  const srv = await startFakeOpenAI([{ text: ["ok"] }]);
  try {
    const p = provider(srv.url, "sk-test-secret-123456");
    await collect(
      p.chat({
        model: "gpt-x",
        system: "Be brief.",
        messages: sampleConversation(),
        tools: [READ_TOOL],
        maxTokens: 100,
        temperature: 0.2,
      }),
    );
    const req = srv.chatRequests[0];
    assert.equal(req.headers.authorization, "Bearer sk-test-secret-123456");
    assert.deepEqual(req.body, {
      model: "gpt-x",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Read a and b" },
        {
          role: "assistant",
          content: "Reading both.",
          tool_calls: [
            {
              id: "call_a",
              type: "function",
              function: { name: "Read", arguments: '{"path":"a"}' },
            },
            {
              id: "call_b",
              type: "function",
              function: { name: "Read", arguments: '{"path":"b"}' },
            },
          ],
        },
        { role: "tool", tool_call_id: "call_a", content: "contents of a" },
        { role: "tool", tool_call_id: "call_b", content: "no such file: b" },
        { role: "assistant", content: "a says hi; b is missing." },
        { role: "user", content: "Thanks" },
      ],
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: "function", function: READ_TOOL }],
      max_tokens: 100,
      temperature: 0.2,
    });
  } finally {
    await srv.close();
  }
});

test("openai: error statuses are classified with one actionable line and no key", async () => {
  const srv = await startFakeOpenAI([
    { error: { status: 401 } },
    { error: { status: 429, headers: { "retry-after": "20" } } },
    {
      error: {
        status: 429,
        message: "You exceeded your current quota, please check your plan and billing details.",
        type: "insufficient_quota",
        code: "insufficient_quota",
      },
    },
    { error: { status: 500 } },
    {
      error: {
        status: 400,
        code: "context_length_exceeded",
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130012 tokens.",
      },
    },
    // llama.cpp's own shape
    {
      error: {
        status: 400,
        body: '{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error","n_prompt_tokens":9000,"n_ctx":8192}}',
      },
    },
    { error: { status: 404 } },
    {
      error: {
        status: 400,
        code: "content_filter",
        message:
          "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
      },
    },
    { error: { status: 413, body: "Payload Too Large" } },
  ]);
  try {
    const p = provider(srv.url, "sk-test-secret-123456");
    const auth = await failure(p);
    assert.equal(auth.errorType, "auth");
    assert.equal(auth.statusCode, 401);
    assert.match(auth.message, /^work: authentication failed \(401\).* — check OPENAI_API_KEY$/);
    assert.doesNotMatch(auth.message, /sk-test-secret|sk-fake\*/);
    assert.doesNotMatch(auth.message, /\n/);

    const rate = await failure(p);
    assert.equal(rate.errorType, "rate_limit");
    assert.equal(rate.retryAfterMs, 20_000);
    assert.equal(rate.retryable, true);
    assert.match(rate.message, /retry after 20s/);

    assert.equal((await failure(p)).errorType, "credit_exhausted");
    const server = await failure(p);
    assert.equal(server.errorType, "server");
    assert.equal(server.retryable, true);
    assert.equal((await failure(p)).errorType, "context_exhausted");
    assert.equal((await failure(p)).errorType, "context_exhausted");
    const missing = await failure(p, "missing-model");
    assert.equal(missing.errorType, "model_unavailable");
    assert.match(missing.message, /model "missing-model" is not available/);
    assert.equal((await failure(p)).errorType, "content_filter");
    assert.equal((await failure(p)).errorType, "context_exhausted");
  } finally {
    await srv.close();
  }
});

test("openai: an error chunk mid-stream, a truncated stream and a closed port", async () => {
  const srv = await startFakeOpenAI([
    {
      text: ["partial"],
      streamError: { message: "Internal error while generating", type: "server_error" },
    },
    { text: ["partial"], truncate: true },
  ]);
  try {
    const p = provider(srv.url);
    const mid = await failure(p);
    assert.equal(mid.errorType, "server");
    const cut = await failure(p);
    assert.equal(cut.errorType, "network");
    assert.match(cut.message, /ended before the answer finished/);
  } finally {
    await srv.close();
  }
  const refused = await failure(provider(srv.url));
  assert.equal(refused.errorType, "network");
  assert.match(
    refused.message,
    /cannot reach http:\/\/127\.0\.0\.1:\d+\/v1: connection (refused|reset|closed|lost)/,
  );
});

test("openai: servers that never send [DONE] still finish", async () => {
  const srv = await startFakeOpenAI([{ text: ["x"] }], { noDone: true });
  try {
    const events = await collect(provider(srv.url).chat(request("m")));
    assert.deepEqual(events.at(-1), { type: "done", stopReason: "stop" });
  } finally {
    await srv.close();
  }
});

test("openai: aborting mid-stream rejects with the abort reason and closes the connection", async () => {
  const srv = await startFakeOpenAI([{ text: ["first ", "second"], hang: true }]);
  try {
    const controller = new AbortController();
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const ev of provider(srv.url).chat(
          request("m", { signal: controller.signal }),
        )) {
          if (ev.type === "text") seen.push(ev.text);
          if (seen.join("") === "first second") controller.abort();
        }
      })(),
      (err: unknown) => err instanceof Error && err.name === "AbortError",
    );
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(srv.chatRequests[0].closedEarly, true);
  } finally {
    await srv.close();
  }
});

test("openai: listModels and best-effort modelInfo from /models, /props, LM Studio", async () => {
  const srv = await startFakeOpenAI([], {
    models: [
      "plain",
      { id: "vllm-model", object: "model", max_model_len: 32768 },
      { id: "gguf", object: "model", meta: { n_ctx_train: 131072, n_params: 8030261248 } },
    ],
    props: { default_generation_settings: { n_ctx: 16384 }, modalities: { vision: true } },
    lmstudio: {
      "lms-model": { id: "lms-model", type: "llm", arch: "qwen3", max_context_length: 40960 },
    },
  });
  try {
    const p = provider(srv.url);
    assert.deepEqual(await p.listModels(), [
      { name: "plain" },
      { name: "vllm-model" },
      { name: "gguf" },
    ]);
    const gguf = await p.modelInfo("gguf");
    // llama.cpp's running n_ctx beats the training context.
    assert.deepEqual(gguf, {
      name: "gguf",
      family: "",
      parameterCount: 8030261248,
      contextLength: 16384,
      capabilities: ["tools", "vision"],
    });
    const configured = new OpenAIProvider({
      baseUrl: srv.url,
      contextLength: 4096,
      capabilities: ["tools"],
    });
    assert.equal((await configured.modelInfo("gguf")).contextLength, 4096);
  } finally {
    await srv.close();
  }
  const lmsOnly = await startFakeOpenAI([], {
    models: ["lms-model"],
    lmstudio: {
      "lms-model": { id: "lms-model", type: "vlm", arch: "gemma3", max_context_length: 40960 },
    },
  });
  try {
    const info = await provider(lmsOnly.url).modelInfo("lms-model");
    assert.equal(info.contextLength, 40960);
    assert.equal(info.family, "gemma3");
    assert.deepEqual(info.capabilities, ["tools", "vision"]);
  } finally {
    await lmsOnly.close();
  }
});

test("openai: inline <think> blocks from servers without a reasoning parser become thinking", async () => {
  const srv = await startFakeOpenAI([
    { text: ["<thi", "nk>\nplan", " it</think>", "\n\nAnswer."] },
  ]);
  try {
    const events = joined(await collect(provider(srv.url).chat(request("m"))));
    assert.deepEqual(events.slice(0, 2), [
      { type: "thinking", text: "\nplan it" },
      { type: "text", text: "Answer." },
    ]);
  } finally {
    await srv.close();
  }
});
