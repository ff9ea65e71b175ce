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
import { displayHistory } from "../main/sessions/history.ts";
import { SessionStore } from "../main/sessions/store.ts";
import { realisticMessages, writeSession } from "./session-fixture.ts";

const MESSAGES = 10_000;
const RUNS = 7;

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
    await writeSession(store, id, realisticMessages(MESSAGES), { turnEnds: true });
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
