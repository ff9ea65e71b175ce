import { test } from "node:test";
import assert from "node:assert/strict";
import { AnthropicProvider } from "./anthropic.ts";
import { ProviderError } from "./types.ts";
import { startFakeAnthropic } from "./testing/fake-anthropic.ts";
import { collect, joined, READ_TOOL, request, sampleConversation } from "./testing/collect.ts";

const KEY = "sk-ant-test-secret-0000";

function provider(url: string) {
  return new AnthropicProvider({ baseUrl: url, apiKey: KEY });
}

async function failure(p: AnthropicProvider): Promise<ProviderError> {
  try {
    await collect(p.chat(request("claude-x")));
  } catch (err) {
    assert.ok(err instanceof ProviderError, `expected ProviderError, got ${String(err)}`);
    return err;
  }
  assert.fail("expected the call to fail");
}

test("anthropic: thinking with signature, text, usage and done", async () => {
  const srv = await startFakeAnthropic([
    {
      thinking: ["Hmm, ", "ok."],
      signature: "sig-abc",
      text: ["Hi ", "there"],
      usage: { input: 40, output: 9 },
    },
  ]);
  try {
    const events = joined(
      await collect(provider(srv.url).chat(request("claude-x", { thinking: "low" }))),
    );
    assert.deepEqual(events, [
      { type: "thinking", text: "Hmm, ok." },
      { type: "thinking_signature", signature: "sig-abc" },
      { type: "text", text: "Hi there" },
      { type: "usage", inputTokens: 40, outputTokens: 9 },
      { type: "done", stopReason: "stop" },
    ]);
    const req = srv.chatRequests[0];
    assert.equal(req.headers["x-api-key"], KEY);
    assert.equal(req.headers["anthropic-version"], "2023-06-01");
    const body = req.body as Record<string, unknown>;
    assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 2048 });
    assert.equal(body.max_tokens, 8192 + 2048);
  } finally {
    await srv.close();
  }
});

test("anthropic: parallel tool_use blocks from input_json_delta fragments", async () => {
  const srv = await startFakeAnthropic([
    {
      text: ["Let me look."],
      toolCalls: [
        { id: "toolu_1", name: "Read", arguments: { path: "ä/b.ts" }, fragments: 5 },
        { id: "toolu_2", name: "Bash", arguments: { command: "ls -la" }, fragments: 9 },
        { id: "toolu_3", name: "Read", arguments: '{"path":', fragments: 2 },
      ],
    },
  ]);
  try {
    const events = await collect(
      provider(srv.url).chat(request("claude-x", { tools: [READ_TOOL] })),
    );
    const calls = events.filter((e) => e.type === "tool_call");
    assert.deepEqual(calls.slice(0, 2), [
      { type: "tool_call", call: { id: "toolu_1", name: "Read", arguments: { path: "ä/b.ts" } } },
      {
        type: "tool_call",
        call: { id: "toolu_2", name: "Bash", arguments: { command: "ls -la" } },
      },
    ]);
    assert.equal(calls[2].type === "tool_call" && calls[2].error !== undefined, true);
    assert.deepEqual(events.at(-1), { type: "done", stopReason: "tool_calls" });
  } finally {
    await srv.close();
  }
});

test("anthropic: request body: top-level system, grouped tool results, echoed thinking", async () => {
  const srv = await startFakeAnthropic([{ text: ["ok"] }]);
  try {
    await collect(
      provider(srv.url).chat({
        model: "claude-x",
        system: "Be brief.",
        messages: sampleConversation(),
        tools: [READ_TOOL],
        thinking: "high",
        temperature: 0.5,
      }),
    );
    assert.deepEqual(srv.chatRequests[0].body, {
      model: "claude-x",
      max_tokens: 8192 + 24576,
      stream: true,
      messages: [
        { role: "user", content: [{ type: "text", text: "Read a and b" }] },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "I should read them.", signature: "sig-1" },
            { type: "text", text: "Reading both." },
            { type: "tool_use", id: "call_a", name: "Read", input: { path: "a" } },
            { type: "tool_use", id: "call_b", name: "Read", input: { path: "b" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_a", content: "contents of a" },
            {
              type: "tool_result",
              tool_use_id: "call_b",
              content: "no such file: b",
              is_error: true,
            },
          ],
        },
        { role: "assistant", content: [{ type: "text", text: "a says hi; b is missing." }] },
        { role: "user", content: [{ type: "text", text: "Thanks" }] },
      ],
      system: "Be brief.",
      tools: [{ name: "Read", description: "Read a file.", input_schema: READ_TOOL.parameters }],
      thinking: { type: "enabled", budget_tokens: 24576 },
    });
  } finally {
    await srv.close();
  }
});

test("anthropic: HTTP errors: 401, 429 + Retry-After, 500, 529 overloaded, context, credit", async () => {
  const srv = await startFakeAnthropic([
    { error: { status: 401 } },
    { error: { status: 429, headers: { "retry-after": "7" } } },
    { error: { status: 500 } },
    { error: { status: 529 } },
    { error: { status: 400, message: "prompt is too long: 215000 tokens > 200000 maximum" } },
    {
      error: {
        status: 400,
        message:
          "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits.",
      },
    },
    { error: { status: 404 } },
  ]);
  try {
    const p = provider(srv.url);
    const auth = await failure(p);
    assert.equal(auth.errorType, "auth");
    assert.equal(
      auth.message,
      "anthropic: authentication failed (401): invalid x-api-key — check ANTHROPIC_API_KEY",
    );
    const rate = await failure(p);
    assert.deepEqual([rate.errorType, rate.retryAfterMs], ["rate_limit", 7000]);
    assert.equal((await failure(p)).errorType, "server");
    const overloaded = await failure(p);
    assert.deepEqual(
      [overloaded.errorType, overloaded.statusCode, overloaded.retryable],
      ["server", 529, true],
    );
    assert.match(overloaded.message, /^anthropic: overloaded \(529\)/);
    assert.equal((await failure(p)).errorType, "context_exhausted");
    assert.equal((await failure(p)).errorType, "credit_exhausted");
    assert.equal((await failure(p)).errorType, "model_unavailable");
  } finally {
    await srv.close();
  }
});

test("anthropic: error event mid-stream and truncated stream", async () => {
  const srv = await startFakeAnthropic([
    { text: ["Par"], streamError: { type: "overloaded_error", message: "Overloaded" } },
    { text: ["Par"], truncate: true },
  ]);
  try {
    const p = provider(srv.url);
    const mid = await failure(p);
    assert.deepEqual([mid.errorType, mid.retryable], ["server", true]);
    assert.equal((await failure(p)).errorType, "network");
  } finally {
    await srv.close();
  }
});

test("anthropic: abort mid-stream", async () => {
  const srv = await startFakeAnthropic([{ text: ["a", "b"], hang: true }]);
  try {
    const controller = new AbortController();
    await assert.rejects(
      (async () => {
        for await (const ev of provider(srv.url).chat(
          request("claude-x", { signal: controller.signal }),
        )) {
          if (ev.type === "text") controller.abort();
        }
      })(),
      { name: "AbortError" },
    );
  } finally {
    await srv.close();
  }
});

test("anthropic: listModels and modelInfo defaults", async () => {
  const srv = await startFakeAnthropic([], { models: ["claude-a", "claude-b"] });
  try {
    const p = provider(srv.url);
    assert.deepEqual(await p.listModels(), [{ name: "claude-a" }, { name: "claude-b" }]);
    assert.equal(srv.requests[0].headers["x-api-key"], KEY);
    assert.deepEqual(await p.modelInfo("claude-a"), {
      name: "claude-a",
      family: "claude",
      parameterCount: 0,
      contextLength: 200000,
      capabilities: ["tools", "vision", "thinking"],
    });
  } finally {
    await srv.close();
  }
});
