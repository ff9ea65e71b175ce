/**
 * Session load benchmark (SPEC §11: a 10k-message session loads in < 300 ms).
 * Figure: median `SessionStore.load()` of a realistic 10,000-message session, saved as the engine
 * saves it: every message with its display events (user_message, thinking, assistant, tool_call,
 * tool_result, hook_trace, done) beside it. Second figure: the same file read with its display
 * history (`load(id, { history: true })` + displayHistory, what `chat/history` does).
 * Baseline, same run and file: readFileSync + split("\n") + JSON.parse of every line — the floor
 * any JSONL loader pays before validation and reconstruction.
 * Run alone: node --no-node-snapshot bench/sessions-bench.ts
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentEvent } from "../main/conversation/events.ts";
import type { Message } from "../main/conversation/message.ts";
import { displayHistory } from "../main/sessions/history.ts";
import { storeSink } from "../main/engine/session-sink.ts";
import { SessionStore } from "../main/sessions/store.ts";

const MESSAGES = 10_000;
const RUNS = 7;

/** Deterministic PRNG (mulberry32) so every run benchmarks the same file. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the session store loads messages from disk while the agent calls tools and the user " +
  "asks why a test fails in src/main.ts because import paths changed after refactoring config"
).split(" ");
const CODE = [
  "export function load(path: string): Session {",
  '  const text = readFileSync(path, "utf8");',
  '  for (const line of text.split("\\n")) {',
  "    if (line === '') continue; // trailing newline",
  "  }",
  "}",
];

function prose(rand: () => number, chars: number): string {
  let out = "";
  while (out.length < chars)
    out += WORDS[Math.floor(rand() * WORDS.length)] + (rand() < 0.08 ? ".\n" : " ");
  return out.slice(0, chars);
}

function codeBlock(rand: () => number, chars: number): string {
  let out = "";
  while (out.length < chars)
    out += `${Math.floor(rand() * 900) + 1}\t${CODE[Math.floor(rand() * CODE.length)]}\n`;
  return out.slice(0, chars);
}

/** A user → assistant (with tool calls) → tool results rhythm, 200–2000 chars per message. */
export function realisticMessages(count: number, seed = 7): Message[] {
  const rand = prng(seed);
  const size = (): number => 200 + Math.floor(rand() * 1800);
  const out: Message[] = [];
  const at = Date.parse("2026-11-21T10:00:00Z");
  let pendingCall: { id: string; name: string } | null = null;
  for (let i = 0; out.length < count; i++) {
    const base = {
      id: `m_${i.toString(36).padStart(6, "0")}`,
      kind: "normal" as const,
      createdAt: new Date(at + i * 1000).toISOString(),
    };
    if (pendingCall) {
      out.push({
        ...base,
        role: "tool",
        content: codeBlock(rand, size()),
        toolCallId: pendingCall.id,
        toolName: pendingCall.name,
        ...(rand() < 0.05 ? { isError: true } : {}),
      });
      pendingCall = null;
    } else if (i % 6 === 0) {
      out.push({ ...base, role: "user", content: prose(rand, size()) });
    } else {
      const name = ["Read", "Grep", "Bash", "Patch"][Math.floor(rand() * 4)];
      pendingCall = { id: `call_${i}`, name };
      out.push({
        ...base,
        role: "assistant",
        content: prose(rand, size()),
        ...(rand() < 0.3 ? { thinking: prose(rand, 300) } : {}),
        toolCalls: [
          {
            id: pendingCall.id,
            name,
            arguments: { path: `src/module${i % 40}.ts`, pattern: "load\\(", limit: 200 },
          },
        ],
      });
    }
  }
  return out;
}

/** The display events the engine saves beside a message (conversation/history.ts). */
function eventsOf(m: Message): AgentEvent[] {
  if (m.role === "user") return [{ type: "user_message", text: m.content }];
  if (m.role === "tool")
    return [
      {
        type: "tool_result",
        id: m.toolCallId ?? "",
        name: m.toolName ?? "",
        output: m.content,
        error: m.isError === true,
        durationMs: 12,
      },
      {
        type: "hook_trace",
        step: 1,
        toolCallId: m.toolCallId,
        toolName: m.toolName,
        entries: [
          {
            source: "guard",
            timing: "afterToolExecution",
            status: "ok",
            durationMs: 0.4,
            changed: [],
          },
        ],
      },
    ];
  const out: AgentEvent[] = [];
  if (m.thinking) out.push({ type: "thinking", text: m.thinking });
  out.push({ type: "assistant", text: m.content });
  for (const c of m.toolCalls ?? [])
    out.push({ type: "tool_call", id: c.id, name: c.name, arguments: c.arguments });
  return out;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function rawParse(file: string): number {
  let n = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line !== "") {
      JSON.parse(line);
      n++;
    }
  }
  return n;
}

export async function benchSessionLoad(): Promise<{
  ms: number;
  historyMs: number;
  baselineMs: number;
  messages: number;
}> {
  const dir = mkdtempSync(join(tmpdir(), "islet-bench-sessions-"));
  const store = new SessionStore(dir, { appVersion: "bench" });
  try {
    const id = await store.create({
      workdir: "/work/proj",
      agent: "coder",
      provider: "ollama",
      model: "qwen3:8b",
    });
    const messages = realisticMessages(MESSAGES);
    // Written the way the engine writes a conversation (engine/session-sink.ts).
    const sink = storeSink(store, id, (err) => {
      throw err;
    });
    for (let i = 0; i < messages.length; i++) {
      const [first, ...rest] = eventsOf(messages[i]);
      const tail = rest.filter((e) => e.type === "hook_trace");
      sink.appendEvent(first);
      for (const e of rest) if (e.type !== "hook_trace") sink.appendEvent(e);
      sink.appendMessage(messages[i]);
      for (const e of tail) sink.appendEvent(e);
      if (i % 60 === 59)
        store.append(id, { t: "todos", todos: [{ content: `step ${i}`, status: "in_progress" }] });
    }
    await sink.flush();
    const file = store.fileOf(id);

    const loadTimes: number[] = [];
    const historyTimes: number[] = [];
    const baseTimes: number[] = [];
    let loaded = 0;
    // One warm-up of each, then interleaved runs so both see the same cache and JIT state.
    rawParse(file);
    await store.load(id);
    for (let run = 0; run < RUNS; run++) {
      let t0 = performance.now();
      rawParse(file);
      baseTimes.push(performance.now() - t0);
      t0 = performance.now();
      const session = await store.load(id);
      loadTimes.push(performance.now() - t0);
      loaded = session.messages.length;
      if (session.warnings.length > 0)
        throw new Error(`bench session loaded with warnings: ${session.warnings[0]}`);
      t0 = performance.now();
      const withHistory = await store.load(id, { history: true });
      const history = displayHistory(withHistory.history!);
      historyTimes.push(performance.now() - t0);
      if (history.warnings.length > 0 || history.events.length < MESSAGES)
        throw new Error(`bench history: ${history.events.length} events, ${history.warnings[0]}`);
    }
    if (loaded !== MESSAGES) throw new Error(`expected ${MESSAGES} messages, loaded ${loaded}`);
    return {
      ms: median(loadTimes),
      historyMs: median(historyTimes),
      baselineMs: median(baseTimes),
      messages: loaded,
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const r = await benchSessionLoad();
  console.table([
    {
      figure: "session load (10k messages)",
      medianMs: +r.ms.toFixed(1),
      baselineMs: +r.baselineMs.toFixed(1),
      ratio: +(r.ms / r.baselineMs).toFixed(2),
      goal: "< 300 ms",
    },
    {
      figure: "session history (10k messages)",
      medianMs: +r.historyMs.toFixed(1),
      baselineMs: +r.baselineMs.toFixed(1),
      ratio: +(r.historyMs / r.baselineMs).toFixed(2),
      goal: "< 500 ms",
    },
  ]);
}
