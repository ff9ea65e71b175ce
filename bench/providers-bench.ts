/**
 * Provider stream parsing throughput, tokens/s, for the three wire protocols.
 *
 * - "parse": the provider's own decoder (bytes → text → SSE/NDJSON → StreamEvents) over a large
 *   in-memory stream cut into 16 KB chunks, like socket reads. Baseline in the same run: bare
 *   JSON.parse of every line of the same stream; the ratio is parser cost over plain decoding.
 * - "loopback": the full provider (fetch, HTTP, decoding) against the fake server in fast mode.
 *
 * Run alone: node --no-node-snapshot bench/providers-bench.ts
 */
import { decodeText } from "../main/providers/lines.ts";
import { decodeOpenAIStream, OpenAIProvider } from "../main/providers/openai.ts";
import { AnthropicProvider, decodeAnthropicStream } from "../main/providers/anthropic.ts";
import { decodeOllamaStream, OllamaProvider } from "../main/providers/ollama.ts";
import type { ErrorContext } from "../main/providers/errors.ts";
import type { Provider, ProviderKind, StreamEvent } from "../main/providers/types.ts";
import { encodeOpenAI, startFakeOpenAI } from "../main/providers/testing/fake-openai.ts";
import { encodeAnthropic, startFakeAnthropic } from "../main/providers/testing/fake-anthropic.ts";
import { encodeOllama, startFakeOllama } from "../main/providers/testing/fake-ollama.ts";
import type { FakeServer } from "../main/providers/testing/fake-server.ts";
import type { ScriptedResponse, WirePiece } from "../main/providers/testing/script.ts";

export interface BenchResult {
  name: string;
  value: number;
  unit: string;
  /** Same-run reference figure. */
  baseline?: { name: string; value: number; unit: string };
  /** How many times slower than the baseline (baseline rate / our rate). */
  ratio?: number;
}

type Decoder = (chunks: AsyncIterable<string>, ctx: ErrorContext) => AsyncGenerator<StreamEvent>;

interface Protocol {
  kind: ProviderKind;
  label: string;
  encode: (r: ScriptedResponse) => WirePiece[];
  decode: Decoder;
  /** The JSON text of a wire line, or undefined for lines that carry none. */
  jsonOf: (line: string) => string | undefined;
  start: (script: ScriptedResponse[]) => Promise<FakeServer>;
  provider: (url: string) => Provider;
}

const sseJson = (line: string) => (line.startsWith("data: {") ? line.slice(6) : undefined);

const PROTOCOLS: Protocol[] = [
  {
    kind: "openai-compatible",
    label: "openai SSE",
    encode: (r) => encodeOpenAI(r),
    decode: decodeOpenAIStream,
    jsonOf: sseJson,
    start: (s) => startFakeOpenAI(s),
    provider: (url) => new OpenAIProvider({ baseUrl: url }),
  },
  {
    kind: "anthropic",
    label: "anthropic SSE",
    encode: (r) => encodeAnthropic(r),
    decode: decodeAnthropicStream,
    jsonOf: sseJson,
    start: (s) => startFakeAnthropic(s),
    provider: (url) => new AnthropicProvider({ baseUrl: url, apiKey: "bench" }),
  },
  {
    kind: "ollama",
    label: "ollama NDJSON",
    encode: (r) => encodeOllama(r),
    decode: decodeOllamaStream,
    jsonOf: (line) => (line.startsWith("{") ? line : undefined),
    start: (s) => startFakeOllama(s),
    provider: (url) => new OllamaProvider({ baseUrl: url }),
  },
];

const CHUNK = 16 * 1024;

function chunked(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < bytes.length; i += CHUNK) out.push(bytes.subarray(i, i + CHUNK));
  return out;
}

async function* iterate(chunks: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const c of chunks) yield c;
}

async function countTexts(events: AsyncIterable<StreamEvent>): Promise<number> {
  let n = 0;
  for await (const ev of events) if (ev.type === "text") n++;
  return n;
}

/** Best of `runs` (least disturbed by GC and the scheduler), as tokens/s. */
async function rate(tokens: number, runs: number, once: () => Promise<number>): Promise<number> {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const seen = await once();
    const ms = performance.now() - t0;
    if (seen !== tokens) throw new Error(`expected ${tokens} tokens, saw ${seen}`);
    best = Math.min(best, ms);
  }
  return Math.round(tokens / (best / 1000));
}

async function parseBench(p: Protocol, tokens: number, runs: number): Promise<BenchResult> {
  const bytes = new TextEncoder().encode(p.encode({ fast: { tokens } }).join(""));
  const chunks = chunked(bytes);
  const ctx: ErrorContext = { provider: "bench", kind: p.kind, baseUrl: "memory" };
  const ours = await rate(tokens, runs, () =>
    countTexts(p.decode(decodeText(iterate(chunks)), ctx)),
  );
  // The floor: JSON.parse of the token-carrying lines alone, split out before timing.
  const lines = new TextDecoder()
    .decode(bytes)
    .split("\n")
    .flatMap((line) => {
      const json = p.jsonOf(line);
      return json !== undefined && isToken(p.kind, JSON.parse(json)) ? [json] : [];
    });
  const bare = await rate(tokens, runs, async () => {
    let n = 0;
    for (let i = 0; i < lines.length; i++) if (JSON.parse(lines[i]) !== null) n++;
    return n;
  });
  return {
    name: `provider parse: ${p.label} (${tokens} tokens, 16 KB chunks)`,
    value: ours,
    unit: "tokens/s",
    baseline: { name: "bare JSON.parse of the same lines", value: bare, unit: "tokens/s" },
    ratio: Math.round((bare / ours) * 100) / 100,
  };
}

/** Whether a decoded wire value carries one answer token (what both sides count). */
function isToken(kind: ProviderKind, v: unknown): boolean {
  const o = v as {
    delta?: { type?: string };
    done?: boolean;
    choices?: { delta?: { content?: unknown } }[];
  };
  if (kind === "anthropic") return o.delta?.type === "text_delta";
  if (kind === "ollama") return o.done === false;
  const content = o.choices?.[0]?.delta?.content;
  return typeof content === "string" && content.length > 0;
}

async function loopbackBench(p: Protocol, tokens: number, runs: number): Promise<BenchResult> {
  // One response object for every run: the fake server encodes it once (during the warm-up).
  const answer: ScriptedResponse = { fast: { tokens } };
  const srv = await p.start(Array.from({ length: runs + 1 }, () => answer));
  try {
    const provider = p.provider(srv.url);
    const once = () =>
      countTexts(provider.chat({ model: "bench", system: "", messages: [], tools: [] }));
    await once();
    const value = await rate(tokens, runs, once);
    return {
      name: `provider stream: ${p.label} over loopback HTTP (${tokens} tokens)`,
      value,
      unit: "tokens/s",
    };
  } finally {
    await srv.close();
  }
}

/** All figures; `tokens` per stream (default 200k), best of `runs` (default 3). */
export async function benchProviderParsing(
  opts: { tokens?: number; runs?: number } = {},
): Promise<BenchResult[]> {
  const tokens = opts.tokens ?? 200_000;
  const runs = opts.runs ?? 3;
  const results: BenchResult[] = [];
  for (const p of PROTOCOLS) await parseBench(p, 2000, 1); // warm the JIT
  for (const p of PROTOCOLS) results.push(await parseBench(p, tokens, runs));
  for (const p of PROTOCOLS) results.push(await loopbackBench(p, tokens, runs));
  return results;
}

if (import.meta.main) {
  for (const r of await benchProviderParsing()) {
    const base = r.baseline
      ? `   baseline ${r.baseline.value.toLocaleString()} ${r.baseline.unit} (×${r.ratio})`
      : "";
    console.log(`${r.name}: ${r.value.toLocaleString()} ${r.unit}${base}`);
  }
}
