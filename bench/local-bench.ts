/**
 * The embedded runtime (provider `local`), each figure against a baseline in the same run, on
 * random-weight models written for the run (main/providers/local/testing/tiny-gguf.ts) whose
 * greedy answers are scripted, so both sides generate the same tokens:
 *
 * - tokens/s of an answer through the whole engine (createEngine, a conversation, the runtime
 *   process, the tools offered) vs node-llama-cpp's own generation loop (LlamaChat in this
 *   process) on the same model. Goal ≥ 0.95×.
 * - time to first token of a conversation's 20th turn (cache reused) vs its first turn (prompt
 *   evaluated whole), through the engine. Goal ≤ 1.5×.
 * - runtime process start + model load (until the runtime reports the model loaded) vs loading
 *   in a fresh process of its own (import node-llama-cpp, getLlama, loadModel, createContext).
 *   Goal ≤ 1.2×.
 * - Stop: from abort() until the provider's stream has ended. Goal < 100 ms.
 *
 * Run alone: node --no-node-snapshot bench/one.ts local
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentEvent } from "../main/turn/events.ts";
import { makeMessage } from "../main/core/message.ts";
import { createEngine } from "../main/engine/bootstrap.ts";
import { LocalProvider, LocalRuntime } from "../main/providers/local/index.ts";
import {
  scriptedAnswer,
  tinyVocabulary,
  writeTinyGguf,
  type TinyGgufOptions,
} from "../main/providers/local/testing/tiny-gguf.ts";
import type { LoadedInfo } from "../main/providers/local/protocol.ts";
import type { Figure } from "./figure.ts";
import { measureRates } from "./local-rate.ts";
import { formatProblem } from "../main/host/problem.ts";

/**
 * One thread: llama.cpp's threads wait for each other at every step, so on a busy machine (this
 * one is shared) more threads measure the scheduler, not the runtime. ISLET_BENCH_THREADS overrides.
 */
const THREADS = Number(process.env.ISLET_BENCH_THREADS) || 1;
const CONTEXT = 32_768;
const round = (n: number, digits = 3) => Math.round(n * 10 ** digits) / 10 ** digits;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** A long answer: every plain piece of the vocabulary once (no newline, no control token). */
function longAnswer(): string[] {
  return tinyVocabulary()
    .filter((p) => !/^<|\n/.test(p) && p !== "▁")
    .map((p) => p.replace(/▁/g, " "));
}

/** A short answer whose text tokenizes back to the same tokens (no two pieces merge). */
const SHORT_ANSWER = [..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"];

const MODEL: TinyGgufOptions = { layers: 4, width: 512, heads: 8, contextLength: CONTEXT };

function setup() {
  const root = mkdtempSync(join(tmpdir(), "islet-bench-local-"));
  const home = join(root, "home");
  const workdir = join(root, "work");
  mkdirSync(join(home, "config"), { recursive: true });
  mkdirSync(join(home, "models"), { recursive: true });
  mkdirSync(workdir);
  writeFileSync(
    join(home, "config", "providers.yaml"),
    `default: { provider: embedded, model: long }\nproviders:\n  embedded: { type: local, threads: ${THREADS}, gpu: false, context_length: ${CONTEXT} }\n`,
  );
  return { root, home, workdir, model: (name: string) => join(home, "models", `${name}.gguf`) };
}

/** A conversation's events, timed: what one turn streamed, and when. */
function recorder() {
  let stamps: number[] = [];
  let text = "";
  return {
    emit(e: AgentEvent): void {
      if (e.type !== "assistant_delta") return;
      stamps.push(performance.now());
      text += e.text;
    },
    /** One turn: ms to its first token, ms from there to its end, and its text. */
    async turn(conv: { submit(text: string): Promise<unknown> }, prompt: string) {
      stamps = [];
      text = "";
      const started = performance.now();
      await conv.submit(prompt);
      const end = performance.now();
      const first = stamps[0] ?? end;
      return { firstMs: first - started, streamMs: end - first, text };
    },
  };
}

export async function benchLocal(): Promise<Figure[]> {
  const dirs = setup();
  const answer = longAnswer();
  await writeTinyGguf(dirs.model("long"), { ...MODEL, follow: scriptedAnswer(answer) });
  await writeTinyGguf(dirs.model("short"), {
    ...MODEL,
    layers: 2,
    width: 256,
    heads: 4,
    follow: scriptedAnswer(SHORT_ANSWER),
  });
  const figures: Figure[] = [];
  try {
    const step = async (name: string, run: () => Promise<Figure>) => {
      process.stderr.write(`bench local: ${name}…\n`);
      figures.push(await run());
    };
    await step("tokens/s", () => tokensPerSecond(dirs, answer.length + 1));
    await step("turn 20", () => firstTokenOfTurn20(dirs));
    await step("start + load", () => startAndLoad(dirs.model("long")));
    await step("stop", () => stopLatency(join(dirs.home, "models")));
  } finally {
    rmSync(dirs.root, { recursive: true, force: true });
  }
  return figures;
}

async function tokensPerSecond(dirs: ReturnType<typeof setup>, tokens: number): Promise<Figure> {
  const r = await measureRates({
    home: dirs.home,
    workdir: dirs.workdir,
    modelFile: dirs.model("long"),
    tokens,
    threads: THREADS,
    contextSize: CONTEXT,
  });
  return {
    name: `local: tokens/s through the engine (${tokens}-token answer after a ${r.promptTokens}-token prompt with ${r.tools} tools, 512-wide 4-layer model, ${THREADS} thread)`,
    value: Math.round(r.engine),
    unit: "tokens/s (median)",
    baseline: {
      name: "node-llama-cpp's LlamaChat in-process, same model and prompt",
      value: Math.round(r.raw),
      unit: "tokens/s",
    },
    ratio: round(r.engine / r.raw, 3),
  };
}

async function firstTokenOfTurn20(dirs: ReturnType<typeof setup>): Promise<Figure> {
  writeFileSync(
    join(dirs.home, "config", "providers.yaml"),
    `default: { provider: embedded, model: short }\nproviders:\n  embedded: { type: local, threads: ${THREADS}, gpu: false, context_length: ${CONTEXT} }\n`,
  );
  const engine = await createEngine({
    home: dirs.home,
    workdir: dirs.workdir,
    env: {},
    plugins: {},
    warn: (problem) => console.error(formatProblem(problem)),
  });
  const RUNS = 2;
  const firsts: number[] = [];
  const twentieths: number[] = [];
  try {
    // Load the model (another conversation: its cache is not this conversation's).
    const warm = recorder();
    const w = await engine.open({ emit: warm.emit });
    await warm.turn(w, "warm up");
    await w.close();
    for (let run = 0; run < RUNS; run++) {
      const rec = recorder();
      const conv = await engine.open({ emit: rec.emit });
      for (let turn = 1; turn <= 20; turn++) {
        const t = await rec.turn(conv, `Question ${run}.${turn}: what comes next?`);
        if (turn === 1) firsts.push(t.firstMs);
        if (turn === 20) twentieths.push(t.firstMs);
      }
      await conv.close();
    }
  } finally {
    await engine.close();
  }
  const t20 = median(twentieths);
  const t1 = median(firsts);
  return {
    name: "local: time to first token, turn 20 of a conversation (cache reused)",
    value: round(t20, 1),
    unit: "ms (median)",
    baseline: { name: "turn 1 (the prompt evaluated whole)", value: round(t1, 1), unit: "ms" },
    ratio: round(t20 / t1, 3),
  };
}

/** Cold load in a fresh process (bench/local-load.ts) of the same context, ms. */
function inProcessLoad(file: string, contextSize: number, sequences: number): number {
  const script = fileURLToPath(new URL("./local-load.ts", import.meta.url));
  const args = [script, file, String(THREADS), String(contextSize), String(sequences)];
  return Number(execFileSync(process.execPath, args, { encoding: "utf8" }).trim());
}

/**
 * Alternating runs, each a fresh runtime (as after an idle unload or a crash) then a fresh
 * in-process load; the figure is the median of each side.
 */
async function startAndLoad(file: string, runs = 7): Promise<Figure> {
  const runtimeMs: number[] = [];
  const inProcessMs: number[] = [];
  let loaded: LoadedInfo | undefined;
  for (let i = 0; i < runs; i++) {
    const runtime = new LocalRuntime({ threads: THREADS, gpu: false });
    const started = performance.now();
    for await (const ev of runtime.chat(
      {
        model: { file, contextSize: CONTEXT },
        system: "",
        messages: [{ role: "user", content: "hi" }],
        tools: [],
        toolSyntax: "auto",
        maxTokens: 1,
      },
      { firstTokenMs: 300_000, idleMs: 120_000 },
    )) {
      if (ev.type !== "started") continue;
      runtimeMs.push(performance.now() - started);
      loaded = ev.info;
    }
    await runtime.unload();
    if (!loaded) throw new Error("the runtime did not load the model");
    // The same model and the same context (window and sequences) as the runtime created.
    inProcessMs.push(inProcessLoad(file, loaded.contextSize, loaded.sequences));
  }
  const ours = median(runtimeMs);
  const base = median(inProcessMs);
  return {
    name: "local: runtime process start + model load (42 MB model, a 32k-token cache, until ready to generate)",
    value: Math.round(ours),
    unit: "ms (median)",
    baseline: {
      name: "the same load in a process of its own (import, getLlama, load, context)",
      value: Math.round(base),
      unit: "ms",
    },
    ratio: round(ours / base, 3),
  };
}

async function stopLatency(modelsDir: string): Promise<Figure> {
  const RUNS = 10;
  await writeTinyGguf(join(modelsDir, "endless.gguf"), { ...MODEL, bias: { "<|im_end|>": -40 } });
  const runtime = new LocalRuntime({ threads: THREADS, gpu: false });
  const provider = new LocalProvider({ modelsDir, runtime });
  const ms: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    const controller = new AbortController();
    let stoppedAt = 0;
    try {
      for await (const ev of provider.chat({
        model: "endless",
        system: "",
        messages: [makeMessage("user", `Go ${i}`)],
        tools: [],
        signal: controller.signal,
      })) {
        if (ev.type === "text" && !stoppedAt) {
          stoppedAt = performance.now();
          controller.abort();
        }
      }
    } catch {
      if (i > 0) ms.push(performance.now() - stoppedAt);
    }
  }
  await runtime.unload();
  return {
    name: "local: Stop, abort() until the answer's stream has ended",
    value: round(median(ms), 2),
    unit: "ms (median)",
  };
}

/** `node --no-node-snapshot bench/local-bench.ts start-load [RUNS]`: that figure alone. */
async function startAndLoadAlone(runs: number): Promise<Figure> {
  const dirs = setup();
  try {
    await writeTinyGguf(dirs.model("long"), { ...MODEL, follow: scriptedAnswer(longAnswer()) });
    return await startAndLoad(dirs.model("long"), runs);
  } finally {
    rmSync(dirs.root, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  if (process.argv[2] === "start-load")
    console.log(await startAndLoadAlone(Number(process.argv[3]) || 9));
  else console.log(await benchLocal());
}
