/**
 * The hostile plugins of SPEC §11 Reliability, as data: each attack is an `attack` export and the
 * fault it must end in. hostile.test.ts runs them against every backend.
 */
import { TEST_LIMITS } from "./testing.ts";
import type { FaultKind, SandboxBackendName } from "./types.ts";
import { wasmModuleSource } from "./wasm-fixture.ts";

export interface Attack {
  name: string;
  code: string;
  /** Expected fault kinds (a big typed array may fail as an exception or kill the isolate). */
  kinds: FaultKind[];
  message: RegExp;
  /** Ceiling on how long containment may take. */
  withinMs: number;
  /**
   * Memory bombs and oversized results get a long time budget, so that memory or the result
   * limit (not time, which a loaded machine runs out of first) is what stops them.
   */
  longBudget?: boolean;
  /** Where a backend cannot even mount the attack, what it ends in there instead. */
  on?: Partial<Record<SandboxBackendName, Pick<Attack, "kinds" | "message">>>;
  /** The plugin's manifest asks for WebAssembly (permissions.wasm). */
  allowWasm?: boolean;
}

// QuickJS has no WebAssembly at all, asked for or not.
const NO_WASM_ON_QUICKJS: Attack["on"] = {
  quickjs: { kinds: ["exception"], message: /WebAssembly' is not defined .*permissions/ },
};
const WASM_OVER_LIMIT = /WebAssembly memory .*memory limit \(32 MB\)/;

export const BUDGET = TEST_LIMITS.callTimeoutMs;
const TIMELY = BUDGET * 2 + 700;
const MEMORY_TIMELY = 10_000;

/** A plugin granted WebAssembly that asks for more memory than its limit: a memory fault. */
const WASM_OVER_LIMIT_ENDING = {
  kinds: ["memory"],
  message: WASM_OVER_LIMIT,
  withinMs: MEMORY_TIMELY,
  longBudget: true,
  allowWasm: true,
  on: NO_WASM_ON_QUICKJS,
} satisfies Partial<Attack>;

export const ATTACKS: Attack[] = [
  {
    name: "sync infinite loop",
    code: `export function attack() { for (;;) {} }`,
    kinds: ["timeout"],
    message: /attack ran past the 300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "async infinite loop after an await",
    code: `export async function attack() { await null; for (;;) {} }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "async loop after awaiting a host call",
    code: `import { fs } from "@islet/sdk"; export async function attack() { await fs.exists("x"); for (;;) {} }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "infinite loop in an awaited timer",
    code: `export function attack() { return new Promise((r) => setTimeout(() => { for (;;) {} }, 10)); }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "never-resolving promise",
    code: `export function attack() { return new Promise(() => {}); }`,
    kinds: ["timeout"],
    message: /attack did not finish within its 300 ms budget/,
    withinMs: TIMELY,
  },
  {
    name: "Atomics.wait forever",
    code: `export function attack() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
    // QuickJS's WASM build has no Atomics (no threads to wait for): nothing can block.
    on: { quickjs: { kinds: ["exception"], message: /Atomics' is not defined/ } },
  },
  {
    name: "memory bomb: array growth",
    code: `export function attack() { const a = []; for (;;) a.push({ n: Math.random(), s: "x" + Math.random() }); }`,
    kinds: ["memory"],
    message: /ran out of memory \(limit 32 MB\)/,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "memory bomb: string doubling",
    code: `export function attack() { let s = "x"; const keep = []; for (;;) { s = s + s; keep.push(s + "y"); } }`,
    kinds: ["memory", "exception"],
    message: /memory|Invalid string length/i,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "memory bomb: one big typed array",
    code: `export function attack() { return new Uint8Array(512 * 1024 * 1024).length; }`,
    kinds: ["memory", "exception"],
    message: /memory|allocation failed/i,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "memory bomb: many typed arrays",
    code: `export function attack() { const keep = []; for (;;) keep.push(new Float64Array(1024 * 1024)); }`,
    kinds: ["memory", "exception"],
    message: /memory|allocation failed/i,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "throw",
    code: `export function attack() { throw new Error("hostile"); }`,
    kinds: ["exception"],
    message: /^hostile \(at attack \(\/plugins\/test-plugin\/index\.ts:1:/,
    withinMs: TIMELY,
  },
  {
    name: "throw a non-Error",
    code: `export function attack() { throw { toString() { for (;;) {} } }; }`,
    kinds: ["exception", "timeout"],
    message: /non-Error|300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "rejected promise",
    code: `export async function attack() { await null; throw new RangeError("async hostile"); }`,
    kinds: ["exception"],
    message: /^RangeError: async hostile/,
    withinMs: TIMELY,
  },
  {
    name: "deep recursion",
    code: `export function attack() { const r = (n) => r(n + 1) + 1; return r(0); }`,
    kinds: ["exception"],
    message: /Maximum call stack size exceeded/,
    withinMs: TIMELY,
  },
  {
    name: "returning a function",
    code: `export function attack() { return { run() {} }; }`,
    kinds: ["result"],
    message: /a function at key "run"/,
    withinMs: TIMELY,
  },
  {
    name: "returning a cycle",
    code: `export function attack() { const a = {}; a.a = a; return a; }`,
    kinds: ["result"],
    message: /a cycle/,
    withinMs: TIMELY,
  },
  {
    name: "returning a BigInt",
    code: `export function attack() { return { n: 10n }; }`,
    kinds: ["result"],
    message: /a BigInt/,
    withinMs: TIMELY,
  },
  {
    name: "returning a symbol",
    code: `export function attack() { return Symbol("s"); }`,
    kinds: ["result"],
    message: /a symbol/,
    withinMs: TIMELY,
  },
  {
    name: "returning a Map",
    code: `export async function attack() { return { m: new Map([[1, 2]]) }; }`,
    kinds: ["result"],
    message: /a Map/,
    withinMs: TIMELY,
  },
  {
    name: "returning a 50 MB string",
    code: `export function attack() { return "x".repeat(50 * 1024 * 1024); }`,
    kinds: ["result", "memory"],
    message: /more than 1000000 characters|memory/,
    withinMs: MEMORY_TIMELY,
  },
  {
    name: "returning many small strings",
    code: `export function attack() { return Array.from({ length: 300000 }, (_, i) => "item" + i); }`,
    kinds: ["result"],
    message: /more than 1000000 characters/,
    withinMs: MEMORY_TIMELY,
    longBudget: true,
  },
  {
    name: "a toJSON that throws",
    code: `export function attack() { return { toJSON() { throw new Error("nope"); } }; }`,
    kinds: ["result"],
    message: /nope/,
    withinMs: TIMELY,
  },
  {
    name: "a getter that loops while the result is encoded",
    code: `export function attack() { return { get x() { for (;;) {} } }; }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "console.log of an object whose getter loops",
    code: `export function attack() { console.log({ get x() { for (;;) {} } }); }`,
    kinds: ["timeout"],
    message: /300 ms/,
    withinMs: TIMELY,
  },
  {
    name: "WebAssembly without permissions.wasm",
    code: `export function attack() { return new WebAssembly.Memory({ initial: 1 }).buffer.byteLength; }`,
    kinds: ["exception"],
    message: /WebAssembly'? is not defined .*plugin\.yaml .*permissions.*wasm/,
    withinMs: TIMELY,
  },
  {
    name: "WebAssembly memory grown far past the limit from JavaScript",
    code: `export function attack() {
      const m = new WebAssembly.Memory({ initial: 1, maximum: 4800 });
      for (let i = 0; i < 30; i++) { m.grow(160); new Uint8Array(m.buffer).fill(1); }
      return m.buffer.byteLength;
    }`,
    ...WASM_OVER_LIMIT_ENDING,
  },
  {
    name: "a WebAssembly module whose own memory starts at 300 MB",
    code: `export function attack() {
      const module = new WebAssembly.Module(${wasmModuleSource(4800)});
      return new WebAssembly.Instance(module).exports.fill(300 * 1024 * 1024);
    }`,
    ...WASM_OVER_LIMIT_ENDING,
  },
  {
    name: "WebAssembly.instantiate (async) of a 300 MB module",
    code: `export async function attack() {
      const { instance } = await WebAssembly.instantiate(${wasmModuleSource(4800)});
      return instance.exports.fill(300 * 1024 * 1024);
    }`,
    ...WASM_OVER_LIMIT_ENDING,
  },
  {
    name: "the native WebAssembly.Memory reached through a prototype",
    code: `export function attack() {
      const Native = Object.getPrototypeOf(new WebAssembly.Memory({ initial: 1, maximum: 1 })).constructor;
      const m = new Native({ initial: 4800 });
      new Uint8Array(m.buffer).fill(1);
      return m.buffer.byteLength;
    }`,
    ...WASM_OVER_LIMIT_ENDING,
  },
];
