/**
 * Plugin runtime figures (SPEC §11), each against a baseline in the same run:
 * - a beforeChat pipeline over 10 plugin isolates with a realistic context (goal < 0.5 ms median),
 *   baseline: the same pipeline with 10 in-process handlers;
 * - plugin load: cold (bundle + compile + instantiate, empty cache) < 30 ms median per plugin,
 *   warm (bundle cached) < 5 ms; and the same on QuickJS, against the isolated-vm figures;
 * - hot reload from file write to new version serving, p95 < 150 ms; baseline: the runtime's
 *   own rebuild of the same plugin (no watcher).
 *
 * Run alone: node --no-node-snapshot bench/plugins-bench.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Context } from "../plugins/sdk/index.ts";
import { runBeforeChat } from "../main/turn/hooks/pipeline.ts";
import type { HookHandler } from "../main/turn/hooks/types.ts";
import { newStats } from "../main/turn/stats.ts";
import type { HookRegistry } from "../main/turn/hooks/types.ts";
import { Contributions } from "../main/contributions/contributions.ts";
import { resolveHomes } from "../main/config/homes.ts";
import { createPluginRuntime } from "../main/code-plugins/setup.ts";
import type { PluginRuntime } from "../main/code-plugins/runtime/runtime.ts";
import type { SandboxBackendName } from "../main/sandbox/types.ts";
import { watchPlugins } from "../main/code-plugins/runtime/watch.ts";
import { spareIsolates } from "../main/sandbox/spare-isolates.ts";
import type { Figure } from "./figure.ts";
import { formatProblem } from "../main/host/problem.ts";

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const round = (n: number) => Math.round(n * 1000) / 1000;

/** A ~10 KB context: 40 turns of conversation, tool history, the usual counters. */
export function realisticContext(): Context {
  const turns = Array.from({ length: 40 }, (_, i) => ({
    role: (i % 2 ? "assistant" : "user") as "user" | "assistant",
    content: `Turn ${i}: ${"some realistic words about the code base ".repeat(5)}`,
  }));
  return {
    iteration: 3,
    tokens: { estimate: 12000, lastApi: 11800, percent: 37.5, max: 32000 },
    agent: "default",
    mode: "",
    modelInfo: {
      name: "qwen3:8b",
      family: "qwen3",
      parameterCount: 8e9,
      contextLength: 32000,
      capabilities: ["tools"],
    },
    stats: newStats(),
    workdir: "/work/project",
    messageCount: 40,
    auto: false,
    doneActive: false,
    hasToolCalls: true,
    maxSteps: 50,
    response: { empty: false, contentEmpty: false },
    todo: { pending: 2, inProgress: 1, total: 5 },
    patchCounts: { "src/a.ts": 2 },
    toolHistory: Array.from({ length: 8 }, (_, i) => ({
      name: "Read",
      args: { path: `src/f${i}.ts` },
      argsJson: `{"path":"src/f${i}.ts"}`,
      result: "x".repeat(100),
      error: "",
      duration: 3,
    })),
    session: { id: "20261122-000000-bench0", title: "bench" },
    provider: "ollama",
    thinkMode: "off",
    features: {
      sandbox: { enabled: false, requested: false },
      readBeforeWrite: true,
      showThinking: true,
      compactionEnabled: true,
    },
    availableTools: ["Read", "Write", "Patch", "Bash", "Glob", "Grep", "Ls", "TodoWrite", "Done"],
    loadedTools: [],
    turns,
    systemPrompt: "You are Islet. ".repeat(20),
    mcpServers: [],
    vars: {},
    pluginConfig: {},
  };
}

const PLUGIN_CODE = (i: number) => `
import type { BeforeChatContext, Result } from "@islet/sdk";
let calls = 0;
export function beforeChat(ctx: BeforeChatContext): Result | undefined {
  calls++;
  if (ctx.todo.pending > 100 + ${i}) return { message: "never" };
  return undefined;
}
`;

async function setup(count: number): Promise<{
  root: string;
  runtime: PluginRuntime;
  /** The engine's one hook registry, which the turn loop reads at every hook point. */
  hooks: HookRegistry;
  close(): Promise<void>;
}> {
  const root = await mkdtemp(path.join(tmpdir(), "islet-bench-plugins-"));
  for (let i = 0; i < count; i++) {
    const dir = path.join(root, "home", "plugins", `p${String(i).padStart(2, "0")}`);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, "plugin.yaml"), "description: bench\n");
    await writeFile(path.join(dir, "index.ts"), PLUGIN_CODE(i));
  }
  const homes = resolveHomes({ home: path.join(root, "home"), workdir: root });
  const contributions = new Contributions();
  const runtime = await createPluginRuntime({
    homes,
    flags: {},
    env: {},
    registrar: contributions.registrar(),
    contextFallback: realisticContext,
    warn: (problem) => console.error(formatProblem(problem)),
  });
  return {
    root,
    runtime,
    hooks: contributions.hooks,
    close: async () => {
      await runtime.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}

async function pipelineFigure(): Promise<Figure> {
  const { hooks, close } = await setup(10);
  try {
    const ctx = realisticContext();
    const handlers = hooks.handlers("beforeChat");
    if (handlers.length !== 10) throw new Error(`expected 10 handlers, got ${handlers.length}`);
    const local: HookHandler<"beforeChat">[] = handlers.map((h) => ({
      source: h.source,
      timing: "beforeChat",
      invoke: async (c) => ({
        status: "ok",
        result: c.todo.pending > 100 ? { message: "never" } : undefined,
      }),
    }));
    for (let i = 0; i < 200; i++) {
      await runBeforeChat(handlers, ctx);
      await runBeforeChat(local, ctx);
    }
    const iso: number[] = [];
    const base: number[] = [];
    for (let i = 0; i < 1000; i++) {
      let t = performance.now();
      // As the turn loop does it: the handlers are looked up through the engine's hook registry.
      await runBeforeChat(hooks.handlers("beforeChat"), ctx);
      iso.push(performance.now() - t);
      t = performance.now();
      await runBeforeChat(local, ctx);
      base.push(performance.now() - t);
    }
    const v = median(iso);
    const b = median(base);
    return {
      name: "beforeChat pipeline, 10 plugin isolates, ~10 KB context",
      value: round(v),
      unit: "ms (median)",
      baseline: { name: "10 in-process handlers", value: round(b), unit: "ms" },
      ratio: round(v / b),
    };
  } finally {
    await close();
  }
}

/** Cold and warm load medians per plugin, over 3 rounds of 10 plugins, on one backend. */
async function loadTimes(backend: SandboxBackendName): Promise<{ cold: number; warm: number }> {
  const count = 10;
  const cold: number[] = [];
  const warm: number[] = [];
  for (let round_ = 0; round_ < 3; round_++) {
    const root = await mkdtemp(path.join(tmpdir(), "islet-bench-load-"));
    for (let i = 0; i < count; i++) {
      const dir = path.join(root, "home", "plugins", `p${i}-${round_}`);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, "plugin.yaml"), "description: bench\n");
      await writeFile(path.join(dir, "index.ts"), PLUGIN_CODE(i + round_ * 100));
    }
    const homes = resolveHomes({ home: path.join(root, "home"), workdir: root });
    for (const list of [cold, warm]) {
      const t = performance.now();
      const runtime = await createPluginRuntime({
        homes,
        flags: {},
        env: {},
        registrar: new Contributions().registrar(),
        contextFallback: realisticContext,
        warn: () => {},
        hostBackend: { name: backend, reason: "bench" },
      });
      list.push((performance.now() - t) / count);
      await runtime.dispose();
    }
    await rm(root, { recursive: true, force: true });
  }
  return { cold: median(cold), warm: median(warm) };
}

async function loadFigures(): Promise<Figure[]> {
  const ivm = await loadTimes("isolated-vm");
  const qjs = await loadTimes("quickjs");
  return [
    {
      name: "plugin load, cold (bundle + compile + instantiate), per plugin",
      value: round(ivm.cold),
      unit: "ms (median)",
    },
    {
      name: "plugin load, warm (bundle cached), per plugin",
      value: round(ivm.warm),
      unit: "ms (median)",
      baseline: { name: "cold load", value: round(ivm.cold), unit: "ms" },
      ratio: round(ivm.warm / ivm.cold),
    },
    {
      name: "plugin load (QuickJS), cold, per plugin",
      value: round(qjs.cold),
      unit: "ms (median)",
      baseline: { name: "isolated-vm cold load", value: round(ivm.cold), unit: "ms" },
      ratio: round(qjs.cold / ivm.cold),
    },
    {
      name: "plugin load (QuickJS), warm, per plugin",
      value: round(qjs.warm),
      unit: "ms (median)",
      baseline: { name: "isolated-vm warm load", value: round(ivm.warm), unit: "ms" },
      ratio: round(qjs.warm / ivm.warm),
    },
  ];
}

async function reloadFigure(): Promise<Figure> {
  const { root, runtime, close } = await setup(1);
  const file = path.join(root, "home", "plugins", "p00", "index.ts");
  let version = 0;
  let resolveReload: (() => void) | null = null;
  const watcher = watchPlugins(runtime, { debounceMs: 25, onReload: () => resolveReload?.() });
  await watcher.ready;
  try {
    const ctx = realisticContext();
    const latencies: number[] = [];
    const rebuilds: number[] = [];
    for (let i = 0; i < 25; i++) {
      version++;
      const reloaded = new Promise<void>((r) => (resolveReload = r));
      const t = performance.now();
      await writeFile(file, `export function beforeChat() { return { notice: "v${version}" }; }`);
      await reloaded;
      const out = await runBeforeChat(runtime.handlers("beforeChat"), ctx);
      if (out.notices[0]?.text !== `v${version}`)
        throw new Error(`reload did not serve v${version}`);
      latencies.push(performance.now() - t);
      const t2 = performance.now();
      await runtime.reloadChanged([file]);
      rebuilds.push(performance.now() - t2);
    }
    return {
      name: "hot reload, file write → new version serving",
      value: round(p95(latencies)),
      unit: "ms (p95)",
      baseline: {
        name: "rebuild alone (no watcher, p95)",
        value: round(p95(rebuilds)),
        unit: "ms",
      },
      ratio: round(p95(latencies) / p95(rebuilds)),
    };
  } finally {
    await watcher.close();
    await close();
  }
}

/**
 * One plugin loaded alone after a pause, as a `/reload` of it does (rediscovery, cached bundle, a
 * new sandbox, swap): median of 15, with and without the spare isolate made ahead (baseline).
 */
async function loneLoadMs(spares: boolean): Promise<number> {
  spareIsolates.enabled = spares;
  const { runtime, close } = await setup(1);
  const times: number[] = [];
  try {
    for (let i = 0; i < 16; i++) {
      // Long enough for the spare to be made (spare-isolates.ts), as between a user's reloads.
      await new Promise((resolve) => setTimeout(resolve, 150));
      const t = performance.now();
      const [report] = await runtime.reloadAll();
      if (!report?.ok) throw new Error(`reload failed: ${report?.error}`);
      if (i > 0) times.push(performance.now() - t);
    }
  } finally {
    await close();
    spareIsolates.enabled = true;
  }
  return median(times);
}

async function loneLoadFigure(): Promise<Figure> {
  const without = await loneLoadMs(false);
  const withSpare = await loneLoadMs(true);
  return {
    name: "plugin load, warm, one plugin alone (a /reload of it)",
    value: round(withSpare),
    unit: "ms (median)",
    baseline: { name: "the same without a spare isolate", value: round(without), unit: "ms" },
    ratio: round(withSpare / without),
  };
}

export async function benchPlugins(): Promise<Figure[]> {
  return [
    await pipelineFigure(),
    ...(await loadFigures()),
    await loneLoadFigure(),
    await reloadFigure(),
  ];
}

if (import.meta.main) {
  for (const f of await benchPlugins()) {
    const base = f.baseline
      ? `  (baseline ${f.baseline.name}: ${f.baseline.value} ${f.baseline.unit}, ×${f.ratio})`
      : "";
    console.log(`${f.name}: ${f.value} ${f.unit}${base}`);
  }
}
