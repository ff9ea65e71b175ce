import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { detectLocalServers } from "./detect.ts";
import { startFakeOllama } from "./testing/fake-ollama.ts";
import { startFakeOpenAI } from "./testing/fake-openai.ts";

/** A port nothing listens on: bind, read it, close. */
async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

test("detect: finds fake Ollama and LM Studio on custom ports, skips what is down", async () => {
  const ollama = await startFakeOllama([], {
    models: [{ name: "qwen3:8b", size: 123 }, { name: "llama3.2:3b" }],
  });
  const lms = await startFakeOpenAI([], { models: ["qwen2.5-7b-instruct"] });
  try {
    const found = await detectLocalServers({
      timeoutMs: 1000,
      ports: { ollama: ollama.port, lmstudio: lms.port, llamacpp: await freePort() },
    });
    assert.deepEqual(found, [
      {
        id: "ollama",
        kind: "ollama",
        baseUrl: ollama.origin,
        models: [
          { name: "qwen3:8b", size: 123 },
          { name: "llama3.2:3b", size: 4_900_000_000 },
        ],
      },
      {
        id: "lmstudio",
        kind: "openai-compatible",
        baseUrl: lms.url,
        models: [{ name: "qwen2.5-7b-instruct" }],
      },
    ]);
  } finally {
    await ollama.close();
    await lms.close();
  }
});

test("detect: a port answering something else is not a model server; slow ones time out", async () => {
  const other = createServer((_req, res) => res.end("<html>hello</html>"));
  const slow = createServer(() => undefined); // never answers
  await new Promise<void>((r) => other.listen(0, "127.0.0.1", r));
  await new Promise<void>((r) => slow.listen(0, "127.0.0.1", r));
  try {
    const started = Date.now();
    const found = await detectLocalServers({
      timeoutMs: 200,
      ports: {
        ollama: (other.address() as AddressInfo).port,
        lmstudio: (slow.address() as AddressInfo).port,
        llamacpp: (other.address() as AddressInfo).port,
      },
    });
    assert.deepEqual(found, []);
    assert.ok(Date.now() - started < 1500, "probes run in parallel with a timeout");
  } finally {
    other.closeAllConnections();
    slow.closeAllConnections();
    await new Promise<void>((r) => other.close(() => r()));
    await new Promise<void>((r) => slow.close(() => r()));
  }
});

test("detect: llama.cpp answering only /health counts, with no model list", async () => {
  const llama = createServer((req, res) => {
    res.setHeader("content-type", "application/json");
    if (req.url === "/health") res.end('{"status":"ok"}');
    else {
      res.statusCode = 404;
      res.end("{}");
    }
  });
  await new Promise<void>((r) => llama.listen(0, "127.0.0.1", r));
  const port = (llama.address() as AddressInfo).port;
  try {
    const found = await detectLocalServers({
      ports: { ollama: await freePort(), lmstudio: await freePort(), llamacpp: port },
    });
    assert.deepEqual(found, [
      {
        id: "llamacpp",
        kind: "openai-compatible",
        baseUrl: `http://127.0.0.1:${port}/v1`,
        models: [],
      },
    ]);
  } finally {
    await new Promise<void>((r) => llama.close(() => r()));
  }
});
