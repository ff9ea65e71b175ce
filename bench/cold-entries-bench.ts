/**
 * A hook's entry into isolates that have run it only a few times, the CPU caches emptied between
 * rounds: what each code plugin with a hook on every model call costs in a session's first turns,
 * when its isolate has neither warm caches nor warm inline caches (a turn's other work, the
 * model's stream above all, pushes them out). The steady-state dispatch figure of the sandbox
 * group measures one hot isolate; this one is the floor the ecosystem's later turns stand on.
 *
 * Ten fresh plugins, each entered once per round as a turn's hook point does, through the
 * sandbox with a hook context (contextPayload, as the handlers send it); the baseline is the
 * bare isolated-vm entry of a trivial function in ten fresh isolates, under the same conditions.
 * The first round (compiling, first-call set-up) is left out.
 *
 * Run alone: node --no-node-snapshot bench/cold-entries-bench.ts
 */
import ivm from "isolated-vm";
import { setImmediate as nextTurn } from "node:timers/promises";
import { contextPayload } from "../main/code-plugins/runtime/handlers.ts";
import { createSandbox } from "../main/sandbox/backends.ts";
import { sampleContext } from "../main/sandbox/fixtures.ts";
import { DEFAULT_LIMITS, type SandboxModule } from "../main/sandbox/types.ts";
import type { Figure } from "./figure.ts";

const PLUGINS = 10;
const ROUNDS = 16;
const BATCHES = 8;
/** Reads one field, as most hooks do (Aura's examples look at the tokens, the todo or the stats). */
const HOOK = `let calls = 0;
export function beforeChat(ctx) {
  calls += 1;
  if (ctx.tokens.percent > 90) return { message: "compact soon" };
  return undefined;
}`;

/** 32 MB written a line at a time: more than the machine's caches hold. */
const junk = new Float64Array(4 << 20);
function emptyCaches(): void {
  for (let i = 0; i < junk.length; i += 8) junk[i] += 1;
}

async function plugins(batch: number): Promise<SandboxModule[]> {
  const modules: SandboxModule[] = [];
  for (let i = 0; i < PLUGINS; i++) {
    modules.push(
      await createSandbox("isolated-vm").load({
        code: HOOK,
        filename: `/plugins/cold-${batch}-${i}/index.ts`,
        limits: DEFAULT_LIMITS,
        host: {
          log: () => {},
          env: {},
          exec: false,
          call: () => Promise.reject(new Error("no host services in the benchmark")),
        },
      }),
    );
  }
  return modules;
}

function bareIsolates(): {
  fns: ivm.Reference<(...args: unknown[]) => unknown>[];
  dispose(): void;
} {
  const isolates = Array.from({ length: PLUGINS }, () => new ivm.Isolate({ memoryLimit: 64 }));
  const fns = isolates.map(
    (iso) =>
      iso
        .compileScriptSync(
          "let calls = 0; (function beforeChat() { calls += 1; return undefined; })",
        )
        .runSync(iso.createContextSync(), { reference: true }) as ivm.Reference<
        (...args: unknown[]) => unknown
      >,
  );
  return { fns, dispose: () => isolates.forEach((iso) => iso.dispose()) };
}

export async function benchColdEntries(): Promise<Figure[]> {
  let ours = 0;
  let bare = 0;
  let entries = 0;
  for (let batch = 0; batch < BATCHES; batch++) {
    const modules = await plugins(batch);
    const floor = bareIsolates();
    for (let round = 0; round < ROUNDS; round++) {
      // A turn's context: a new object each time, serialised once for all the plugins.
      const payload = contextPayload({ ...sampleContext(), iteration: round }, {});
      emptyCaches();
      await nextTurn();
      let started = performance.now();
      for (const m of modules)
        await m.callJson("beforeChat", payload.json, payload.lazy, payload.deferred);
      const oursMs = performance.now() - started;
      emptyCaches();
      await nextTurn();
      started = performance.now();
      for (const fn of floor.fns) fn.applySync(undefined, [round], { timeout: 1000 });
      const bareMs = performance.now() - started;
      if (round === 0) continue;
      ours += oursMs;
      bare += bareMs;
      entries += PLUGINS;
    }
    for (const m of modules) m.dispose();
    floor.dispose();
  }
  const oursUs = (ours * 1000) / entries;
  const bareUs = (bare * 1000) / entries;
  return [
    {
      name: `hook entry into ${PLUGINS} fresh isolates, their calls 2–${ROUNDS}, caches emptied between rounds`,
      value: Math.round(oursUs * 10) / 10,
      unit: "µs/entry (mean)",
      baseline: {
        name: "bare isolated-vm applySync of a trivial function, same conditions",
        value: Math.round(bareUs * 10) / 10,
        unit: "µs/entry",
      },
      ratio: Math.round((oursUs / bareUs) * 100) / 100,
    },
  ];
}

if (import.meta.main) console.log(JSON.stringify(await benchColdEntries(), null, 2));
