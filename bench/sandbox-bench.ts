/**
 * Plugin sandbox figures (SPEC §11), each against a baseline measured in the same run:
 *
 * - hook dispatch: `SandboxModule.call("beforeChat", [ctx])` with a realistic ~10 KB context
 *   (40 chat turns), sync and async hooks. Floor: the cheapest bare isolated-vm way to deliver
 *   the same context into an isolate as an object and get a value back (applySync of a trivial
 *   function, arguments structured-cloned, or a JSON string parsed inside — whichever is faster).
 *   The pure call with an unparsed string is reported too, as the absolute lower bound.
 * - worker_threads round trip with the same payload and the same hook (the mechanism of
 *   process-isolated peers).
 * - idle plugin memory: isolate heap and process RSS growth per loaded, idle plugin (20 plugins).
 * - cold load: IsolatedVmSandbox.load of a ~50 KB module, vs a bare isolate + context + module
 *   compile/instantiate/evaluate without the prelude.
 * - QuickJS side by side (the second backend, SPEC §6): the same hook dispatch, idle memory and
 *   cold load through QuickJsSandbox, each against the isolated-vm figure of the same run (goal
 *   for dispatch: within 10× of isolated-vm).
 *
 * Run alone: node --no-node-snapshot bench/sandbox-bench.ts
 */
import ivm from "isolated-vm";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Worker } from "node:worker_threads";
import { createSandbox } from "../main/sandbox/backends.ts";
import {
  DEFAULT_LIMITS,
  type HostCapabilities,
  type SandboxBackendName,
  type SandboxModule,
} from "../main/sandbox/types.ts";
import type { Context } from "../plugins/sdk/index.ts";
import { moduleOfSize, SAMPLE_HOOK, sampleContext } from "../main/sandbox/fixtures.ts";
import type { BenchResult } from "./providers-bench.ts";

const host: HostCapabilities = {
  log: () => {},
  env: {},
  exec: false,
  call: () => Promise.reject(new Error("no host services in the benchmark")),
};

type Measured = Record<string, () => unknown>;

/**
 * Median µs per call for each function, measured in interleaved batches so that machine noise
 * and GC pressure fall on all of them alike (their ratios are what matters).
 */
async function perCallUs(fns: Measured, batch = 400, rounds = 15): Promise<Record<string, number>> {
  const samples: Record<string, number[]> = {};
  for (const [name, fn] of Object.entries(fns)) {
    samples[name] = [];
    for (let i = 0; i < batch; i++) await fn();
  }
  for (let r = 0; r < rounds; r++) {
    for (const [name, fn] of Object.entries(fns)) {
      const start = process.hrtime.bigint();
      for (let i = 0; i < batch; i++) await fn();
      samples[name]!.push(Number(process.hrtime.bigint() - start) / batch / 1_000);
    }
  }
  return Object.fromEntries(
    Object.entries(samples).map(([name, values]) => [name, median(values)]),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** The bare isolated-vm ways to hand the context to a trivial function in an isolate. */
function floorCalls(ctx: Context): { calls: Measured; dispose(): void } {
  const iso = new ivm.Isolate({ memoryLimit: 64 });
  const context = iso.createContextSync();
  const fns = context.evalClosureSync(
    `return { take: (ctx) => (ctx.turns.length > 200 ? 1 : 0), parse: (s) => (JSON.parse(s).turns.length > 200 ? 1 : 0), bare: (s) => 0 };`,
    [],
    { result: { reference: true } },
  ) as ivm.Reference<Record<string, unknown>>;
  const fn = (name: string) =>
    fns.getSync(name, { reference: true }) as ivm.Reference<(arg: unknown) => number>;
  const [take, parse, bare] = [fn("take"), fn("parse"), fn("bare")];
  const json = JSON.stringify(ctx);
  return {
    calls: {
      floorCopy: () => take.applySync(undefined, [ctx], { arguments: { copy: true } }),
      floorJson: () => parse.applySync(undefined, [JSON.stringify(ctx)]),
      bareString: () => bare.applySync(undefined, [json]),
    },
    dispose: () => iso.dispose(),
  };
}

async function workerRoundTrip(ctx: Context): Promise<number> {
  const worker = new Worker(
    `const { parentPort } = require("node:worker_threads");
     const beforeChat = (ctx) => (ctx.tokens.percent > 90 || ctx.turns.length > 200 ? { message: "compact soon" } : null);
     parentPort.on("message", (ctx) => parentPort.postMessage(beforeChat(ctx)));`,
    { eval: true },
  );
  const roundTrip = () =>
    new Promise((resolve) => {
      worker.once("message", resolve);
      worker.postMessage(ctx);
    });
  const { worker: us } = await perCallUs({ worker: roundTrip }, 200, 9);
  await worker.terminate();
  return us!;
}

// `gc` without --expose-gc: memory figures need a collected heap before and after.
function collectGarbage(): void {
  setFlagsFromString("--expose-gc");
  (runInNewContext("gc") as () => void)();
}

function loadSample(backend: SandboxBackendName, code: string, name: string) {
  return createSandbox(backend).load({
    code,
    filename: `/plugins/${name}/index.ts`,
    limits: DEFAULT_LIMITS,
    host,
  });
}

async function idleMemory(
  backend: SandboxBackendName,
  count = 20,
): Promise<{ heapMb: number; rssMb: number }> {
  collectGarbage();
  const rssBefore = process.memoryUsage().rss;
  const modules: SandboxModule[] = [];
  for (let i = 0; i < count; i++) {
    const m = await loadSample(backend, SAMPLE_HOOK, `p${i}`);
    await m.call("beforeChat", [sampleContext()]);
    modules.push(m);
  }
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 50));
  const rssDelta = (process.memoryUsage().rss - rssBefore) / count;
  const heap = modules.reduce((sum, m) => sum + m.heapUsed(), 0) / count;
  for (const m of modules) m.dispose();
  return { heapMb: heap / 2 ** 20, rssMb: rssDelta / 2 ** 20 };
}

/**
 * Median load time of each backend and of a bare isolate + compile + evaluate. Not interleaved:
 * collecting the WASM memories of disposed QuickJS sandboxes would land on isolated-vm's samples.
 */
async function coldLoadMs(code: string): Promise<Record<SandboxBackendName | "bare", number>> {
  const warm = (xs: number[]) => median(xs.slice(5));
  const timed = async (load: () => Promise<() => void>) => {
    const samples: number[] = [];
    for (let i = 0; i < 25; i++) {
      const start = performance.now();
      const dispose = await load();
      samples.push(performance.now() - start);
      dispose();
    }
    collectGarbage();
    return warm(samples);
  };
  const sandbox = (backend: SandboxBackendName) => async () => {
    const m = await loadSample(backend, code, "big");
    return () => m.dispose();
  };
  return {
    "isolated-vm": await timed(sandbox("isolated-vm")),
    bare: await timed(async () => {
      const iso = new ivm.Isolate({ memoryLimit: 64 });
      const context = iso.createContextSync();
      const mod = await iso.compileModule(code, { filename: "/plugins/big/index.ts" });
      mod.instantiateSync(context, () => {
        throw new Error("no imports");
      });
      mod.evaluateSync();
      return () => iso.dispose();
    }),
    quickjs: await timed(sandbox("quickjs")),
  };
}

export async function benchHookDispatch(): Promise<BenchResult[]> {
  const ctx = sampleContext();
  const bytes = JSON.stringify(ctx).length;
  const m = await loadSample("isolated-vm", SAMPLE_HOOK, "bench");
  const q = await loadSample("quickjs", SAMPLE_HOOK, "bench");
  const floor = floorCalls(ctx);
  const us = await perCallUs({
    sync: () => m.call("beforeChat", [ctx]),
    async: () => m.call("beforeChatAsync", [ctx]),
    quickjsSync: () => q.call("beforeChat", [ctx]),
    quickjsAsync: () => q.call("beforeChatAsync", [ctx]),
    ...floor.calls,
  });
  m.dispose();
  q.dispose();
  floor.dispose();
  const [syncUs, asyncUs, floorCopy, floorJson] = [
    us.sync!,
    us.async!,
    us.floorCopy!,
    us.floorJson!,
  ];
  const floorUs = Math.min(floorCopy, floorJson);
  const floorName =
    floorCopy <= floorJson
      ? "bare applySync, context structured-cloned"
      : "bare applySync, context as JSON parsed inside";
  const workerUs = await workerRoundTrip(ctx);
  const memory = await idleMemory("isolated-vm");
  const quickjsMemory = await idleMemory("quickjs");
  const big = moduleOfSize();
  const load = await coldLoadMs(big);
  const kb = `${(bytes / 1024).toFixed(1)} KB context`;
  const versus = (figure: string, value: number, unit: string) => ({
    baseline: { name: `isolated-vm, ${figure}`, value, unit },
  });
  return [
    {
      name: `hook dispatch, sync hook, ${kb}`,
      value: syncUs,
      unit: "µs/call",
      baseline: { name: floorName, value: floorUs, unit: "µs/call" },
      ratio: syncUs / floorUs,
    },
    {
      name: `hook dispatch, async hook, ${kb}`,
      value: asyncUs,
      unit: "µs/call",
      baseline: { name: floorName, value: floorUs, unit: "µs/call" },
      ratio: asyncUs / floorUs,
    },
    {
      name: `hook dispatch (QuickJS), sync hook, ${kb}`,
      value: us.quickjsSync!,
      unit: "µs/call",
      ...versus("sync hook", syncUs, "µs/call"),
      ratio: us.quickjsSync! / syncUs,
    },
    {
      name: `hook dispatch (QuickJS), async hook, ${kb}`,
      value: us.quickjsAsync!,
      unit: "µs/call",
      ...versus("async hook", asyncUs, "µs/call"),
      ratio: us.quickjsAsync! / asyncUs,
    },
    {
      name: `worker_threads round trip, ${kb}`,
      value: workerUs,
      unit: "µs/call",
      baseline: { name: "hook dispatch, sync hook", value: syncUs, unit: "µs/call" },
      ratio: workerUs / syncUs,
    },
    {
      name: `bare applySync, unparsed JSON string (lower bound), ${kb}`,
      value: us.bareString!,
      unit: "µs/call",
    },
    { name: "idle plugin isolate heap", value: memory.heapMb, unit: "MB/plugin" },
    { name: "idle plugin RSS growth (20 plugins)", value: memory.rssMb, unit: "MB/plugin" },
    {
      name: "idle plugin heap (QuickJS)",
      value: quickjsMemory.heapMb,
      unit: "MB/plugin",
      ...versus("isolate heap", memory.heapMb, "MB/plugin"),
    },
    {
      name: "idle plugin RSS growth (QuickJS, 20 plugins)",
      value: quickjsMemory.rssMb,
      unit: "MB/plugin",
      ...versus("RSS growth", memory.rssMb, "MB/plugin"),
    },
    {
      name: `cold load, ${Math.round(big.length / 1024)} KB module`,
      value: load["isolated-vm"],
      unit: "ms (median)",
      baseline: { name: "bare isolate + compile + evaluate", value: load.bare, unit: "ms" },
      ratio: load["isolated-vm"] / load.bare,
    },
    {
      name: `cold load (QuickJS), ${Math.round(big.length / 1024)} KB module`,
      value: load.quickjs,
      unit: "ms (median)",
      ...versus("cold load", load["isolated-vm"], "ms"),
      ratio: load.quickjs / load["isolated-vm"],
    },
  ];
}

if (import.meta.main) {
  const round = (n: number) => Math.round(n * 100) / 100;
  console.table(
    (await benchHookDispatch()).map((r) => ({
      figure: r.name,
      value: round(r.value),
      unit: r.unit,
      baseline: r.baseline
        ? `${r.baseline.name}: ${round(r.baseline.value)} ${r.baseline.unit}`
        : "",
      ratio: r.ratio === undefined ? "" : `×${round(r.ratio)}`,
    })),
  );
}
