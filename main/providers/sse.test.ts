import { test } from "node:test";
import assert from "node:assert/strict";
import { readSse, SseDecoder, type SseEvent } from "./sse.ts";
import { readNdjson, NdjsonParseError } from "./ndjson.ts";
import { LineSplitter } from "./lines.ts";

const encoder = new TextEncoder();

/** All ways of cutting `bytes` into two or three pieces, to hit every split position. */
function* splits(bytes: Uint8Array): Generator<Uint8Array[]> {
  for (let i = 0; i <= bytes.length; i++) {
    yield [bytes.slice(0, i), bytes.slice(i)];
    const j = Math.min(bytes.length, i + 3);
    yield [bytes.slice(0, i), bytes.slice(i, j), bytes.slice(j)];
  }
}

async function* chunks(parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const p of parts) yield p;
}

async function collectSse(parts: Uint8Array[]): Promise<SseEvent[]> {
  const out: SseEvent[] = [];
  for await (const ev of readSse(chunks(parts))) out.push(ev);
  return out;
}

const STREAM =
  ": keep-alive comment\r\n" +
  "event: content_block_delta\r\n" +
  'data: {"text":"héllo 🌍"}\r\n' +
  "\r\n" +
  "id: 7\n" +
  "data: line one\n" +
  "data:line two\n" +
  "\n" +
  "retry: 100\r" +
  "data: cr only\r" +
  "\r" +
  "data: [DONE]\n\n";

const EXPECTED: SseEvent[] = [
  { event: "content_block_delta", data: '{"text":"héllo 🌍"}', id: "" },
  { event: "message", data: "line one\nline two", id: "7" },
  { event: "message", data: "cr only", id: "7" },
  { event: "message", data: "[DONE]", id: "7" },
];

test("SSE: same events however the bytes are split (CRLF, CR, LF, UTF-8 mid-char)", async () => {
  const bytes = encoder.encode(STREAM);
  for (const parts of splits(bytes)) assert.deepEqual(await collectSse(parts), EXPECTED);
});

test("SSE: one byte at a time", async () => {
  const bytes = encoder.encode(STREAM);
  const parts = Array.from(bytes, (b) => Uint8Array.of(b));
  assert.deepEqual(await collectSse(parts), EXPECTED);
});

test("SSE: a final event without the blank line is still delivered", async () => {
  const events = await collectSse([encoder.encode("data: a\n\ndata: [DONE]")]);
  assert.deepEqual(
    events.map((e) => e.data),
    ["a", "[DONE]"],
  );
});

test("SSE: empty data line dispatches an empty event; event without data does not", () => {
  const d = new SseDecoder();
  const out = [...d.push("event: ping\n\ndata:\n\n"), ...d.end()];
  assert.deepEqual(out, [{ event: "message", data: "", id: "" }]);
});

test("SSE: reads a ReadableStream and cancels it when the consumer stops early", async () => {
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      controller.enqueue(encoder.encode("data: x\n\n"));
    },
    cancel() {
      cancelled = true;
    },
  });
  let n = 0;
  for await (const ev of readSse(stream)) {
    assert.equal(ev.data, "x");
    if (++n === 3) break;
  }
  assert.equal(cancelled, true);
});

test("lines: a line spread over many chunks is joined once", () => {
  const s = new LineSplitter();
  const got: string[] = [];
  for (let i = 0; i < 1000; i++) got.push(...s.push("ab"));
  got.push(...s.push("\nnext"), ...s.end());
  assert.equal(got.length, 2);
  assert.equal(got[0].length, 2000);
  assert.equal(got[1], "next");
});

test("NDJSON: values across split chunks, blank lines skipped, no trailing newline", async () => {
  const text = '{"a":1}\n\n  \n{"b":"é"}\r\n{"c":[1,2]}';
  const bytes = encoder.encode(text);
  for (const parts of splits(bytes)) {
    const out: unknown[] = [];
    for await (const v of readNdjson(chunks(parts))) out.push(v);
    assert.deepEqual(out, [{ a: 1 }, { b: "é" }, { c: [1, 2] }]);
  }
});

test("NDJSON: a broken line is an error with an excerpt", async () => {
  await assert.rejects(
    async () => {
      for await (const _ of readNdjson(chunks([encoder.encode('{"a":1}\n{oops\n')]))) void _;
    },
    (err: unknown) => err instanceof NdjsonParseError && err.message.includes("{oops"),
  );
});
