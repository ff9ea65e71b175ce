import { test } from "node:test";
import assert from "node:assert/strict";
import {
  classify,
  httpError,
  networkError,
  parseRetryAfter,
  readServerError,
  scrub,
  streamError,
  type ErrorContext,
} from "./errors.ts";

const ctx: ErrorContext = {
  provider: "local",
  kind: "ollama",
  baseUrl: "http://user:pw@127.0.0.1:11434",
  model: "qwen3:8b",
  secrets: ["super-secret-key-value"],
};

test("errors: Retry-After as seconds, HTTP date and retry-after-ms", () => {
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "12" })), 12_000);
  const now = Date.parse("2026-01-01T00:00:00Z");
  assert.equal(
    parseRetryAfter(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), now),
    30_000,
  );
  assert.equal(parseRetryAfter(new Headers({ "retry-after-ms": "250", "retry-after": "1" })), 250);
  assert.equal(parseRetryAfter(new Headers({ "retry-after": "soon" })), undefined);
  assert.equal(parseRetryAfter(new Headers()), undefined);
});

test("errors: classification by status, type, code and message", () => {
  const c = (status: number, body: unknown) => classify(status, readServerError(body));
  assert.equal(
    c(529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    "server",
  );
  assert.equal(
    c(0, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }),
    "server",
  );
  assert.equal(c(403, { error: { message: "forbidden" } }), "auth");
  assert.equal(c(402, "Payment Required"), "credit_exhausted");
  assert.equal(
    c(429, { error: { code: "insufficient_quota", message: "quota" } }),
    "credit_exhausted",
  );
  assert.equal(c(400, { error: 'model "x" not loaded' }), "model_unavailable");
  assert.equal(
    c(400, {
      error:
        "No models loaded. Please load a model in the developer page or use the `lms load` command.",
    }),
    "model_unavailable",
  );
  assert.equal(
    c(500, { error: { message: "input length exceeds maximum context length" } }),
    "context_exhausted",
  );
  assert.equal(
    c(400, {
      object: "error",
      message: "This model's maximum context length is 4096 tokens.",
      type: "BadRequestError",
    }),
    "context_exhausted",
  );
  assert.equal(
    c(400, { error: { code: "content_policy_violation", message: "blocked" } }),
    "content_filter",
  );
  assert.equal(
    c(503, { error: { code: 503, message: "Loading model", type: "unavailable_error" } }),
    "server",
  );
  assert.equal(c(400, { error: { message: "bad field" } }), "");
});

test("errors: messages are one line, scrubbed, with advice", () => {
  const e = httpError(
    ctx,
    400,
    '{"error":"registry.ollama.ai/library/gemma:2b does not support tools"}',
  );
  assert.equal(e.errorType, "");
  assert.match(
    e.message,
    /^local: request failed \(400\): .*does not support tools — .*set `tools: text`/,
  );
  const leak = httpError(ctx, 401, '{"error":"bad key super-secret-key-value\\n(Bearer abc.def)"}');
  assert.doesNotMatch(leak.message, /super-secret|abc\.def|\n/);
  const notFound = httpError(ctx, 404, "404 page not found");
  assert.equal(
    notFound.message,
    "local: endpoint not found (404) at http://127.0.0.1:11434 — check base_url",
  );
  assert.equal(scrub("key sk-abcdefghijklmnop end"), "key *** end");
  assert.equal(scrub("x".repeat(400)).length, 301);
  assert.equal(
    streamError(ctx, { error: "unexpected EOF" }).message,
    "local: request failed: unexpected EOF",
  );
});

test("errors: network failures name the cause and hide URL credentials", () => {
  const refused = networkError(
    ctx,
    new TypeError("fetch failed", {
      cause: Object.assign(new Error("x"), { code: "ECONNREFUSED" }),
    }),
  );
  assert.equal(
    refused.message,
    "local: cannot reach http://127.0.0.1:11434: connection refused — check that the server is running and base_url is right",
  );
  assert.deepEqual([refused.errorType, refused.retryable], ["network", true]);
  const dns = networkError(
    ctx,
    new TypeError("fetch failed", { cause: Object.assign(new Error("x"), { code: "ENOTFOUND" }) }),
  );
  assert.match(dns.message, /host not found \(DNS\)/);
  const timeout = networkError(ctx, new DOMException("The operation timed out.", "TimeoutError"));
  assert.match(timeout.message, /timed out/);
});

test("errors: a redirect names where to point base_url (POSTs are not followed)", () => {
  const err = httpError(
    { ...ctx, baseUrl: "http://api.example.com/v1" },
    301,
    "",
    new Headers({ location: "https://api.example.com/v1/chat/completions?x=1" }),
  );
  assert.equal(
    err.message,
    "local: http://api.example.com/v1 redirects (301) to https://api.example.com/v1/chat/completions — set base_url to the new address",
  );
});
