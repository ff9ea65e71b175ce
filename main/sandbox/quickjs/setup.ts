/**
 * Building a plugin's sandbox for the QuickJS backend: the WASM instance with its memory cap, the
 * runtime with its stack limit and interrupt handler, the module loader for the synthetic modules
 * (`islet:internal`, `@islet/sdk`, `@islet/sdk/exec`, the entry), and the prelude with the host
 * callbacks. Entering it and classifying faults is engine.ts.
 *
 * One WASM instance per plugin, not one shared module: QuickJS's own memory limit does not count
 * allocation sizes under Emscripten (malloc_usable_size is unavailable there, so every block
 * counts as 8 bytes and a plugin could grow a shared heap to 2 GB with typed arrays), whereas an
 * instance's WebAssembly.Memory has a hard `maximum`. A private instance also confines what a
 * trap or a host stack overflow in the middle of the interpreter leaves behind to one plugin, and
 * gives its memory back when the plugin goes. The compiled WebAssembly.Module is shared, so an
 * instance costs a few milliseconds and ~16 MB of reserved (not resident) memory.
 */
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type {
  JSModuleLoader,
  JSModuleNormalizer,
  QuickJSContext,
  QuickJSHandle,
  QuickJSRuntime,
} from "quickjs-emscripten";
import { messageOf } from "../host-bridge.ts";
import { checkImport, EXEC_SPECIFIER, SDK_SPECIFIER } from "../imports.ts";
import type { PreludeHost } from "../isolated-vm-setup.ts";
import {
  EXEC_MODULE_SOURCE,
  INTERNAL_MODULE_SOURCE,
  INTERNAL_SPECIFIER,
  PLUGIN_SPECIFIER,
  PRELUDE_SOURCE,
  SDK_MODULE_SOURCE,
  type PreludeConfig,
} from "../prelude.ts";
import { unwrap } from "./errors.ts";
import { HARDEN_SOURCE, hardenLimit } from "./harden.ts";
import { SandboxFault } from "../types.ts";

type QuickJsLibrary = typeof import("quickjs-emscripten");

const MIB = 1024 * 1024;
const PAGE = 64 * 1024;
/** The instance's static data, its C stack (several MB) and the runtime itself: the first 16 MB. */
const BASE_PAGES = 256;
/**
 * The interpreter's recursion limit, in bytes of its C stack. Each interpreted frame also takes
 * host (V8) stack for the WASM frames, ~2–3× as much, and the host stack is ~1 MB in all: 192 KB
 * leaves room for the host's own frames (≈1,000 levels of plain JS recursion). Deeper recursion
 * in native code that QuickJS does not count (JSON of >5,000-deep nesting) can still exhaust the
 * host stack; that unwinds through the instance, which is then abandoned (engine.ts).
 */
const STACK_BYTES = 192 * 1024;

export const ENTRY_NAME = "islet:entry";

export interface QuickJsEntries {
  invoke: QuickJSHandle;
  invokeJson: QuickJSHandle;
  settle: QuickJSHandle;
  describe: QuickJSHandle;
}

export interface QuickJsVm {
  runtime: QuickJSRuntime;
  context: QuickJSContext;
}

let library: Promise<{ qjs: QuickJsLibrary; wasmModule?: WebAssembly.Module }> | undefined;

/** Loaded on first use, like isolated-vm: only this backend fails where the package is missing. */
async function loadLibrary(): Promise<{ qjs: QuickJsLibrary; wasmModule?: WebAssembly.Module }> {
  library ??= (async () => {
    const qjs = await import("quickjs-emscripten");
    let wasmModule: WebAssembly.Module | undefined;
    try {
      const url = import.meta.resolve("@jitl/quickjs-wasmfile-release-sync/wasm");
      wasmModule = await WebAssembly.compile(await readFile(fileURLToPath(url)));
    } catch {
      // The variant then reads and compiles its .wasm itself for every sandbox: slower, same result.
    }
    return { qjs, wasmModule };
  })();
  try {
    return await library;
  } catch (error) {
    library = undefined;
    throw new SandboxFault("load", `quickjs-emscripten is not available here: ${messageOf(error)}`);
  }
}

/** A fresh WASM instance, runtime and context with the plugin's limits and module loader. */
export async function createQuickJsVm(opts: {
  memoryMb: number;
  shouldInterrupt: () => boolean;
  modules: { load: JSModuleLoader; normalize: JSModuleNormalizer };
}): Promise<QuickJsVm> {
  const { qjs, wasmModule } = await loadLibrary();
  const memoryMb = Math.max(8, opts.memoryMb);
  const memory = new WebAssembly.Memory({
    initial: BASE_PAGES,
    maximum: BASE_PAGES + Math.ceil((memoryMb * MIB) / PAGE),
  });
  const variant = qjs.newVariant(qjs.RELEASE_SYNC, {
    wasmMemory: memory,
    ...(wasmModule ? { wasmModule } : {}),
  });
  const wasm = await qjs.newQuickJSWASMModule(variant);
  encodeStringsNatively(wasm);
  const runtime = wasm.newRuntime();
  // Counts blocks rather than bytes here (see above), but refuses any single allocation over the cap.
  runtime.setMemoryLimit(memoryMb * MIB);
  runtime.setMaxStackSize(STACK_BYTES);
  runtime.setInterruptHandler(opts.shouldInterrupt);
  runtime.setModuleLoader(opts.modules.load, opts.modules.normalize);
  return { runtime, context: runtime.newContext() };
}

interface EmscriptenStrings {
  HEAPU8: Uint8Array;
  lengthBytesUTF8(text: string): number;
  stringToUTF8(text: string, pointer: number, maxBytes: number): void;
}

/**
 * Every string passed in (a hook's ~10 KB JSON context above all) is copied into the instance
 * by Emscripten's UTF-8 encoder, a JavaScript loop per character: ~80 µs for 8 KB, a quarter
 * of a hook call. The same job done by TextEncoder takes a few µs. These functions are fields
 * of the instance's Emscripten module, which quickjs-emscripten keeps private: where it is not
 * there as expected, the original stays.
 */
function encodeStringsNatively(wasm: object): void {
  const module = (wasm as { module?: Partial<EmscriptenStrings> }).module;
  if (
    !module ||
    !(module.HEAPU8 instanceof Uint8Array) ||
    typeof module.stringToUTF8 !== "function" ||
    typeof module.lengthBytesUTF8 !== "function"
  ) {
    return;
  }
  const strings = module as EmscriptenStrings;
  const encoder = new TextEncoder();
  strings.lengthBytesUTF8 = (text) => Buffer.byteLength(text, "utf8");
  strings.stringToUTF8 = (text, pointer, maxBytes) => {
    if (maxBytes <= 0) return;
    // HEAPU8 is replaced when the memory grows: read it at every call.
    const heap = strings.HEAPU8;
    const { written } = encoder.encodeInto(text, heap.subarray(pointer, pointer + maxBytes - 1));
    heap[pointer + written] = 0;
  };
}

/**
 * The module graph: the entry imports `islet:internal` and the plugin (named by its filename, so
 * stack traces show it); the plugin may import only what checkImport allows. A refused import is
 * reported through `refused` so the load fails with checkImport's own message.
 */
export function pluginModules(opts: {
  code: string;
  filename: string;
  execAllowed: boolean;
  refused: (fault: SandboxFault) => void;
}): { load: JSModuleLoader; normalize: JSModuleNormalizer } {
  const { code, filename, execAllowed } = opts;
  const synthetic = new Set([ENTRY_NAME, INTERNAL_SPECIFIER, SDK_SPECIFIER, EXEC_SPECIFIER]);
  const sources = new Map([
    [INTERNAL_SPECIFIER, INTERNAL_MODULE_SOURCE],
    [SDK_SPECIFIER, SDK_MODULE_SOURCE],
    ...(execAllowed ? [[EXEC_SPECIFIER, EXEC_MODULE_SOURCE] as const] : []),
  ]);
  if (synthetic.has(filename)) throw new SandboxFault("load", `${filename}: reserved module name`);
  return {
    normalize(base, requested) {
      // Only the plugin's own imports are the plugin's choice; `islet:internal` is for ours.
      if (base === filename) {
        try {
          return checkImport(requested, filename, execAllowed) === "exec"
            ? EXEC_SPECIFIER
            : SDK_SPECIFIER;
        } catch (fault) {
          if (fault instanceof SandboxFault) opts.refused(fault);
          return { error: new Error(messageOf(fault)) };
        }
      }
      if (requested === INTERNAL_SPECIFIER && synthetic.has(base)) return INTERNAL_SPECIFIER;
      if (requested === PLUGIN_SPECIFIER && base === ENTRY_NAME) return filename;
      return { error: new Error(`unexpected import ${requested}`) };
    },
    load(name) {
      const source = name === filename ? code : sources.get(name);
      return source ?? { error: new Error(`unexpected module ${name}`) };
    },
  };
}

/**
 * Hardens the realm (harden.ts), then runs the prelude with the host callbacks, which
 * stay inside closures (never on globalThis), and returns its entries. The plugin's module is not
 * loaded yet, so nothing here is hostile.
 */
export function installPrelude(
  context: QuickJSContext,
  host: PreludeHost & { overdue(): boolean },
  config: PreludeConfig & { memoryMb: number },
): QuickJsEntries {
  const fn = (name: string, impl: (...args: QuickJSHandle[]) => void) =>
    context.newFunction(name, (...args) => void impl(...args));
  const overdue = context.newFunction("overdue", () =>
    host.overdue() ? context.true : context.false,
  );
  const harden = unwrap(context, context.evalCode(`(${HARDEN_SOURCE})`, "islet:harden"));
  const limit = context.newNumber(hardenLimit(config.memoryMb));
  unwrap(context, context.callFunction(harden, context.undefined, overdue, limit)).dispose();
  for (const h of [harden, limit, overdue]) h.dispose();
  const str = (h: QuickJSHandle) => context.getString(h);
  const num = (h: QuickJSHandle) => context.getNumber(h);
  const hostObject = context.newObject();
  const callbacks: [string, QuickJSHandle][] = [
    ["log", fn("log", (level, text) => host.log(str(level), str(text)))],
    ["call", fn("call", (id, name, args) => host.call(num(id), str(name), str(args)))],
    ["cancel", fn("cancel", (id) => host.cancel(num(id)))],
    ["done", fn("done", (id, outcome) => host.done(num(id), str(outcome)))],
    [
      "field",
      context.newFunction("field", (id, name) => {
        const text = host.field(num(id), str(name));
        return text === undefined ? context.undefined : context.newString(text);
      }),
    ],
  ];
  for (const [name, handle] of callbacks) {
    context.setProp(hostObject, name, handle);
    handle.dispose();
  }
  const factory = unwrap(
    context,
    context.evalCode(
      `(function (host, configJson) { return (${PRELUDE_SOURCE})(host, JSON.parse(configJson)); })`,
      "islet:prelude",
      { type: "global" },
    ),
  );
  const { memoryMb: _memoryMb, ...preludeConfig } = config;
  const configHandle = context.newString(JSON.stringify(preludeConfig));
  const entries = unwrap(
    context,
    context.callFunction(factory, context.undefined, hostObject, configHandle),
  );
  for (const h of [factory, configHandle, hostObject]) h.dispose();
  const entry = (name: string) => context.getProp(entries, name);
  const result = {
    invoke: entry("invoke"),
    invokeJson: entry("invokeJson"),
    settle: entry("settle"),
    describe: entry("describe"),
  };
  entries.dispose();
  return result;
}

/** A host value as a handle the caller disposes (strings, numbers, booleans, undefined only). */
export function toHandle(
  context: QuickJSContext,
  value: string | number | boolean | undefined,
): QuickJSHandle {
  if (typeof value === "string") return context.newString(value);
  if (typeof value === "number") return context.newNumber(value);
  if (typeof value === "boolean") return value ? context.true : context.false;
  return context.undefined;
}

/** Heap bytes the runtime's objects use, from QuickJS's own accounting. */
export function heapBytes(runtime: QuickJSRuntime): number {
  const match = /^memory used\s+\d+\s+(\d+)/m.exec(runtime.dumpMemoryUsage());
  return match ? Number(match[1]) : 0;
}
