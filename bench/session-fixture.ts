/**
 * Benchmark sessions: a deterministic, realistic conversation (prompts, answers with thinking,
 * tool calls and their results, 200–2000 characters each) written the way the engine writes it
 * (engine/session-sink.ts): every message with its display events beside it.
 */
import type { AgentEvent } from "../main/core/events.ts";
import type { Message } from "../main/core/message.ts";
import { storeSink } from "../main/engine/session-sink.ts";
import type { SessionStore } from "../main/sessions/store.ts";

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

/** An answer as a model writes it: paragraphs, now and then a list or a fenced code block. */
function answer(rand: () => number, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const roll = rand();
    const part =
      roll < 0.2
        ? "```ts\n" + codeBlock(rand, 120 + Math.floor(rand() * 300)).trimEnd() + "\n```"
        : roll < 0.35
          ? [1, 2, 3]
              .map(() => `- \`${WORDS[Math.floor(rand() * WORDS.length)]}\` ${prose(rand, 60)}`)
              .join("\n")
          : prose(rand, 100 + Math.floor(rand() * 300)).replaceAll("\n", " ");
    parts.push(part);
    length += part.length;
  }
  return parts.join("\n\n");
}

/**
 * Turns as an agent has them: a prompt, 0–4 rounds of (answer with a tool call, its result),
 * then the final answer; 200–2000 characters per message. An even `count` ends on a whole turn.
 */
export function realisticMessages(count: number, seed = 7): Message[] {
  const rand = prng(seed);
  const size = (): number => 200 + Math.floor(rand() * 1800);
  const out: Message[] = [];
  const at = Date.parse("2026-11-21T10:00:00Z");
  const base = () => {
    const i = out.length;
    return {
      id: `m_${i.toString(36).padStart(6, "0")}`,
      kind: "normal" as const,
      createdAt: new Date(at + i * 1000).toISOString(),
    };
  };
  while (out.length < count) {
    out.push({ ...base(), role: "user", content: prose(rand, size()) });
    const left = count - out.length;
    if (left === 0) break;
    const rounds = Math.min(Math.floor(rand() * 5), Math.floor((left - 1) / 2));
    for (let r = 0; r < rounds; r++) {
      const call = {
        id: `call_${out.length}`,
        name: ["Read", "Grep", "Bash", "Patch"][Math.floor(rand() * 4)],
        arguments: { path: `src/module${out.length % 40}.ts`, pattern: "load\\(", limit: 200 },
      };
      out.push({
        ...base(),
        role: "assistant",
        content: prose(rand, size()),
        ...(rand() < 0.3 ? { thinking: prose(rand, 300) } : {}),
        toolCalls: [call],
      });
      out.push({
        ...base(),
        role: "tool",
        content: codeBlock(rand, size()),
        toolCallId: call.id,
        toolName: call.name,
        ...(rand() < 0.05 ? { isError: true } : {}),
      });
    }
    out.push({ ...base(), role: "assistant", content: answer(rand, size()) });
  }
  return out;
}

/** The display events the engine saves beside a message (main/core/history.ts). */
export function eventsOf(m: Message): AgentEvent[] {
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

const STATS = {
  startTime: "2026-11-21T10:00:00.000Z",
  duration: 4200,
  interactions: 1,
  turns: 1,
  iterations: 3,
  tools: { calls: 2, errors: 0 },
  parseRetries: 0,
  compactions: 0,
  tokens: { in: 5200, out: 900 },
  topTools: [{ name: "Read", count: 2 }],
};

/**
 * Saves `messages` into session `id` as the engine does: each message's display events around
 * it, the todo list now and then, and with `turnEnds` a `done` event where each turn ends (before
 * the next prompt and at the end), as a live conversation has.
 */
export async function writeSession(
  store: SessionStore,
  id: string,
  messages: readonly Message[],
  opts: { turnEnds?: boolean } = {},
): Promise<void> {
  const sink = storeSink(store, id, (err) => {
    throw err;
  });
  const done: AgentEvent = { type: "done", stats: STATS, sessionId: id };
  for (let i = 0; i < messages.length; i++) {
    if (opts.turnEnds && i > 0 && messages[i].role === "user") sink.appendEvent(done);
    const [first, ...rest] = eventsOf(messages[i]);
    const tail = rest.filter((e) => e.type === "hook_trace");
    sink.appendEvent(first);
    for (const e of rest) if (e.type !== "hook_trace") sink.appendEvent(e);
    sink.appendMessage(messages[i]);
    for (const e of tail) sink.appendEvent(e);
    if (i % 60 === 59)
      store.append(id, { t: "todos", todos: [{ content: `step ${i}`, status: "in_progress" }] });
  }
  if (opts.turnEnds) sink.appendEvent(done);
  await sink.flush();
}
