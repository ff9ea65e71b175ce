/**
 * Connect, first-token and idle limits against real loopback servers that stall, for each wire
 * protocol: the limit that fires is named with its value, it is a retryable network error, a
 * live stream is never cut, and a user's stop still wins at every stage.
 */
import net from "node:net";
import { test } from "node:test";
import assert from "node:assert/strict";
import { AnthropicProvider } from "./anthropic.ts";
import { OllamaProvider } from "./ollama.ts";
import { OpenAIProvider } from "./openai.ts";
import { ProviderError, type Provider, type StreamEvent } from "./types.ts";
import type { Timeouts } from "./timeouts.ts";
import { startFakeAnthropic, startFakeOllama, startFakeOpenAI } from "./testing/index.ts";
import type { FakeServer } from "./testing/fake-server.ts";
import type { ScriptedResponse } from "./testing/script.ts";
import { startUnconnectable } from "./testing/unconnectable.ts";
import { request } from "./testing/collect.ts";

/** Small limits of the test's own; assertions allow a loaded machine plenty of slack. */
const SMALL: Timeouts = { connectMs: 700, firstTokenMs: 700, idleMs: 700 };
const UPPER_MS = 15_000;
const TEST = { timeout: 30_000 };

interface Protocol {
  label: string;
  start(script: ScriptedResponse[]): Promise<FakeServer>;
  provider(url: string, timeouts: Partial<Timeouts>): Provider;
}

const PROTOCOLS: Protocol[] = [
  {
    label: "openai",
    start: (s) => startFakeOpenAI(s),
    provider: (url, timeouts) => new OpenAIProvider({ name: "work", baseUrl: url, timeouts }),
  },
  {
    label: "anthropic",
    start: (s) => startFakeAnthropic(s),
    provider: (url, timeouts) =>
      new AnthropicProvider({ name: "claude", baseUrl: url, apiKey: "test-key", timeouts }),
  },
  {
    label: "ollama",
    start: (s) => startFakeOllama(s),
    provider: (url, timeouts) => new OllamaProvider({ name: "local", baseUrl: url, timeouts }),
  },
];

interface Outcome {
  events: StreamEvent[];
  error: unknown;
  ms: number;
}

async function run(p: Provider, signal?: AbortSignal): Promise<Outcome> {
  const events: StreamEvent[] = [];
  const t0 = performance.now();
  try {
    for await (const ev of p.chat(request("m", { signal }))) events.push(ev);
  } catch (error) {
    return { events, error, ms: performance.now() - t0 };
  }
  return { events, error: undefined, ms: performance.now() - t0 };
}

function timedOut(o: Outcome, kind: string, name: string): ProviderError {
  assert.ok(o.error instanceof ProviderError, `expected a ProviderError, got ${String(o.error)}`);
  assert.equal(o.error.errorType, "network");
  assert.equal(o.error.retryable, true);
  assert.equal(o.error.timeout, kind);
  assert.match(o.error.message, new RegExp(`\\(${kind} timeout\\b`));
  assert.match(o.error.message, /0\.7 s/);
  assert.match(o.error.message, new RegExp(`providers\\.${name}\\.timeouts\\.${kind}`));
  assert.doesNotMatch(o.error.message, /\n/);
  assert.ok(o.ms >= 600, `fired after ${o.ms} ms, before the limit`);
  assert.ok(o.ms < UPPER_MS, `fired after ${o.ms} ms`);
  return o.error;
}

/** Active timers; the agent's keep-alive timers go once the server closes its sockets. */
function timers(): number {
  return process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
}

/**
 * Asserts no timer outlives the call: with limits of a minute, a leaked limit timer would still
 * be counted when this looks (within 3 s of the server closing).
 */
async function noTimersLeft(before: number): Promise<void> {
  const deadline = Date.now() + 3000;
  while (timers() > before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(timers() <= before, `a limit timer is left running (${timers()} > ${before})`);
}

const LONG: Timeouts = { connectMs: 60_000, firstTokenMs: 60_000, idleMs: 60_000 };

const names: Record<string, string> = { openai: "work", anthropic: "claude", ollama: "local" };

for (const p of PROTOCOLS) {
  const name = names[p.label];

  test(`${p.label}: a server that never answers hits the first_token limit`, TEST, async () => {
    const srv = await p.start([{ silent: true }]);
    try {
      const o = await run(p.provider(srv.url, SMALL));
      const err = timedOut(o, "first_token", name);
      assert.match(err.message, new RegExp(`no first token from m at ${srv.origin}`));
      assert.match(err.message, /if the model needs longer to load/);
    } finally {
      await srv.close();
    }
  });

  test(
    `${p.label}: headers and a preamble without a token still hit the first_token limit`,
    TEST,
    async () => {
      // OpenAI sends a role chunk and Anthropic message_start before any token; neither is one.
      const srv = await p.start([{ hang: true }]);
      try {
        timedOut(await run(p.provider(srv.url, SMALL)), "first_token", name);
      } finally {
        await srv.close();
      }
    },
  );

  test(`${p.label}: a stream that stalls mid-answer hits the idle limit`, TEST, async () => {
    const srv = await p.start([{ text: ["Hel", "lo"], hang: true }]);
    try {
      const o = await run(p.provider(srv.url, SMALL));
      const err = timedOut(o, "idle", name);
      assert.match(err.message, /stalled/);
      const text = o.events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
      assert.equal(text, "Hello", "what streamed before the stall was delivered");
    } finally {
      await srv.close();
    }
  });

  test(`${p.label}: a slow but live stream is not cut by the idle limit`, TEST, async () => {
    // Each gap is under the limit while the whole answer takes longer than it.
    const srv = await p.start([{ text: ["a", "b", "c", "d", "e", "f"], pauseMs: 250 }]);
    try {
      const o = await run(p.provider(srv.url, { ...SMALL, idleMs: 1000, firstTokenMs: 1000 }));
      assert.equal(o.error, undefined, String(o.error));
      assert.ok(o.ms > 1000, `the answer took ${o.ms} ms, not longer than the limit`);
      assert.equal(o.events.at(-1)?.type, "done");
    } finally {
      await srv.close();
    }
  });

  test(`${p.label}: no limit timer outlives a finished answer`, TEST, async () => {
    const before = timers();
    const srv = await p.start([{ text: ["fine"] }, { text: ["again"] }]);
    try {
      const provider = p.provider(srv.url, LONG);
      for (let i = 0; i < 2; i++) {
        const o = await run(provider);
        assert.equal(o.error, undefined, String(o.error));
      }
    } finally {
      await srv.close();
    }
    await noTimersLeft(before);
  });

  const stages: [string, ScriptedResponse][] = [
    ["before the first token", { silent: true }],
    ["mid-answer", { text: ["Hel", "lo"], hang: true }],
  ];
  for (const [stage, script] of stages) {
    test(`${p.label}: Stop ${stage} wins over the limits and clears them`, TEST, async () => {
      const before = timers();
      const srv = await p.start([script]);
      let o: Outcome;
      try {
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 300);
        o = await run(p.provider(srv.url, LONG), controller.signal);
      } finally {
        await srv.close();
      }
      assert.ok(o.error instanceof Error && o.error.name === "AbortError", String(o.error));
      assert.ok(o.ms < UPPER_MS);
      await noTimersLeft(before);
    });
  }
}

test("a server whose accept queue is full hits the connect limit", TEST, async () => {
  const hole = await startUnconnectable();
  try {
    const p = new OllamaProvider({ name: "local", baseUrl: hole.origin, timeouts: SMALL });
    const err = timedOut(await run(p), "connect", "local");
    assert.match(err.message, new RegExp(`could not connect to ${hole.origin} within 0\\.7 s`));
  } finally {
    await hole.close();
  }
});

test("Stop while connecting wins over the connect limit and clears it", TEST, async () => {
  const hole = await startUnconnectable();
  const before = timers();
  try {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 300);
    const p = new OpenAIProvider({ name: "work", baseUrl: hole.origin, timeouts: LONG });
    const o = await run(p, controller.signal);
    assert.ok(o.error instanceof Error && o.error.name === "AbortError", String(o.error));
    assert.ok(o.ms < UPPER_MS);
    await noTimersLeft(before);
  } finally {
    await hole.close();
  }
});

test("a closed port is refused at once, not after the connect limit", TEST, async () => {
  const srv = await startFakeOllama([]);
  const origin = srv.origin;
  await srv.close();
  const p = new OllamaProvider({ name: "local", baseUrl: origin, timeouts: LONG });
  const o = await run(p);
  assert.ok(o.error instanceof ProviderError, String(o.error));
  assert.equal(o.error.timeout, undefined);
  assert.match(o.error.message, /cannot reach .*: connection refused — check that the server/);
  assert.ok(o.ms < UPPER_MS);
});

test(
  "an https server that never finishes the TLS handshake hits the connect limit",
  TEST,
  async () => {
    // Accepts TCP and says nothing: the handshake is part of connecting.
    const sockets: net.Socket[] = [];
    const mute = net.createServer((s) => void sockets.push(s));
    await new Promise<void>((resolve) => mute.listen(0, "127.0.0.1", resolve));
    const port = (mute.address() as net.AddressInfo).port;
    try {
      const p = new OpenAIProvider({
        name: "work",
        baseUrl: `https://127.0.0.1:${port}/v1`,
        timeouts: SMALL,
      });
      timedOut(await run(p), "connect", "work");
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => mute.close(resolve));
    }
  },
);
