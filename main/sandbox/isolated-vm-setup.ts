/**
 * Building a plugin's isolate for the isolated-vm backend: loading the native module, installing
 * the prelude with the host callbacks, and linking the plugin with the synthetic modules
 * (`islet:internal`, `@islet/sdk`, `@islet/sdk/exec`, and the entry that binds its exports).
 */
import type IsolatedVM from "isolated-vm";
import { collectAtExit } from "./collect-at-exit.ts";
import { messageOf } from "./host-bridge.ts";
import { checkImport, EXEC_SPECIFIER, SDK_SPECIFIER } from "./imports.ts";
import {
  ENTRY_MODULE_SOURCE,
  EXEC_MODULE_SOURCE,
  INTERNAL_MODULE_SOURCE,
  INTERNAL_SPECIFIER,
  PLUGIN_SPECIFIER,
  PRELUDE_SOURCE,
  SDK_MODULE_SOURCE,
  type PreludeConfig,
} from "./prelude.ts";
import { SandboxFault } from "./types.ts";

export type Ivm = typeof IsolatedVM;
/** A function inside the isolate that the host enters with applySync. */
export type Entry = IsolatedVM.Reference<(...args: unknown[]) => unknown>;

export interface PreludeEntries {
  invoke: Entry;
  invokeJson: Entry;
  settle: Entry;
  describe: Entry;
  /** The bytes of reservations still alive (prelude-memory.ts), after a collection. */
  recount: Entry;
}

/** The host side of the prelude's four synchronous functions (see prelude.ts). */
export interface PreludeHost {
  log(level: unknown, text: unknown): void;
  call(id: unknown, name: unknown, argsJson: unknown): void;
  cancel(id: unknown): void;
  done(id: unknown, outcome: unknown): void;
  /** A lazy context field's JSON (lazy-fields.ts), read synchronously. */
  field(id: unknown, name: unknown): string | undefined;
  /**
   * Memory V8 does not count (prelude-memory.ts): the bytes left, or the sandbox stops.
   * isolated-vm only: QuickJS counts all of its memory itself.
   */
  reserve?(live: unknown, wanted: unknown, refuse: unknown, what: unknown): number;
}

let ivmModule: Promise<Ivm> | undefined;

/**
 * Loaded on first use: where the native module is missing (an Electron build without it) only
 * this backend fails, with a clear load fault, instead of every importer of the backend.
 */
export async function loadIsolatedVm(): Promise<Ivm> {
  ivmModule ??= import("isolated-vm").then((m: { default: Ivm }) => {
    collectAtExit();
    return m.default;
  });
  try {
    return await ivmModule;
  } catch (error) {
    ivmModule = undefined;
    throw new SandboxFault("load", `isolated-vm is not available here: ${messageOf(error)}`);
  }
}

/**
 * Runs the prelude in `context`. The host callbacks are passed as closure arguments, so they
 * live only inside the prelude, never on globalThis (ENGINEERING §1).
 */
let preludeCode: IsolatedVM.ExternalCopy<ArrayBuffer> | undefined;
const PRELUDE_WRAPPER = `(function (log, call, cancel, done, field, reserve, config) {
  return (${PRELUDE_SOURCE})({ log, call, cancel, done, field, reserve }, config);
})`;

export async function installPrelude(
  ivm: Ivm,
  iso: IsolatedVM.Isolate,
  context: IsolatedVM.Context,
  host: PreludeHost,
  config: PreludeConfig,
  timeoutMs: number,
): Promise<PreludeEntries> {
  const callbacks = [
    new ivm.Callback((level: unknown, text: unknown) => host.log(level, text)),
    new ivm.Callback((id: unknown, name: unknown, args: unknown) => host.call(id, name, args)),
    new ivm.Callback((id: unknown) => host.cancel(id)),
    new ivm.Callback((id: unknown, outcome: unknown) => host.done(id, outcome)),
    new ivm.Callback((id: unknown, name: unknown) => host.field(id, name)),
    new ivm.Callback((live: unknown, wanted: unknown, refuse: unknown, what: unknown) =>
      host.reserve ? host.reserve(live, wanted, refuse, what) : 0,
    ),
  ];
  // Synchronous on purpose: each async step is a round trip to the isolate's thread (~0.3 ms
  // apiece on a busy machine), more than the work it hands over for this small, cached script.
  // A lone load (a reload, an on-demand activation) waits for every trip; in a batch of loads
  // they overlapped anyway, so there it is about even.
  const script = iso.compileScriptSync(PRELUDE_WRAPPER, {
    filename: "islet:prelude",
    ...(preludeCode ? { cachedData: preludeCode } : { produceCachedData: true }),
  });
  // V8's code cache for the prelude, made by the first isolate: later ones skip the compile
  // (about 0.8 ms of a plugin's load).
  preludeCode ??= (script as { cachedData?: IsolatedVM.ExternalCopy<ArrayBuffer> }).cachedData;
  const install = script.runSync(context, {
    reference: true,
    timeout: timeoutMs,
  }) as IsolatedVM.Reference<(...args: unknown[]) => unknown>;
  // The host callbacks are arguments of the prelude's closure: they never sit on globalThis.
  const entries = install.applySync(
    undefined,
    [...callbacks, new ivm.ExternalCopy(config).copyInto()],
    {
      result: { reference: true },
      timeout: timeoutMs,
    },
  ) as unknown as IsolatedVM.Reference<Record<string, unknown>>;
  const entry = (name: string) => entries.getSync(name, { reference: true }) as Entry;
  return {
    invoke: entry("invoke"),
    invokeJson: entry("invokeJson"),
    settle: entry("settle"),
    describe: entry("describe"),
    recount: entry("recount"),
  };
}

/**
 * Compiles the plugin and links it under the entry module. Imports are checked first, so a
 * forbidden one fails with its own message rather than a linker error.
 */
export async function linkPlugin(
  iso: IsolatedVM.Isolate,
  context: IsolatedVM.Context,
  opts: { code: string; filename: string; execAllowed: boolean },
): Promise<IsolatedVM.Module> {
  const { code, filename, execAllowed } = opts;
  const plugin = await iso.compileModule(code, { filename }).catch((error: unknown) => {
    throw new SandboxFault("load", `${filename}: ${messageOf(error)}`, { cause: error });
  });
  for (const specifier of plugin.dependencySpecifiers) {
    checkImport(specifier, filename, execAllowed);
  }
  const compile = (source: string, name: string) =>
    iso.compileModuleSync(source, { filename: name });
  const internal = compile(INTERNAL_MODULE_SOURCE, INTERNAL_SPECIFIER);
  const sdk = compile(SDK_MODULE_SOURCE, SDK_SPECIFIER);
  const exec = execAllowed ? compile(EXEC_MODULE_SOURCE, EXEC_SPECIFIER) : undefined;
  const main = compile(ENTRY_MODULE_SOURCE, "islet:entry");
  main.instantiateSync(context, (specifier, referrer) => {
    // Only the plugin's own imports are the plugin's choice; `islet:internal` is for ours.
    if (referrer === plugin) {
      const kind = checkImport(specifier, filename, execAllowed);
      if (kind === "exec" && exec) return exec;
      return sdk;
    }
    if (specifier === INTERNAL_SPECIFIER) return internal;
    if (specifier === PLUGIN_SPECIFIER && referrer === main) return plugin;
    throw new Error(`unexpected import ${specifier}`);
  });
  return main;
}
