/**
 * The backend-independent JavaScript installed in every sandbox before the plugin: console,
 * timers, fetch, `process.env`, and the sources of the `@islet/sdk` and `@islet/sdk/exec` modules.
 *
 * Protocol between a backend and the prelude (everything crossing is a string, number or boolean):
 *
 * - The backend evaluates `PRELUDE_SOURCE` (a function expression) and calls it with a host
 *   object of synchronous functions and a `PreludeConfig`:
 *     log(level, text)          console output
 *     call(id, name, argsJson)  starts host service `name` ("fetch", "fs.readFile", …, or "timer"
 *                               with [delayMs]); the backend answers later with settle(id, …)
 *     cancel(id)                forgets a started service (clearTimeout)
 *     done(callId, outcome)     an async export call (or the module's evaluation, callId 0) ended
 *     field(callId, name)       a lazy context field's JSON
 *     reserve(live, wanted, refuse, what)  memory V8 does not count: WebAssembly and resizable
 *                               buffers (isolated-vm only; prelude-memory.ts)
 *   It gets back `PreludeEntries`; those are the only ways into the sandbox after load.
 * - Host services are therefore ONE function (call/settle by name with JSON arguments); timers are
 *   just the service "timer". Completions arrive through `settle`, which the backend runs like any
 *   other entry (with the call budget as its time limit), so a loop after an `await`, in a timer or
 *   in a `.then` runs inside an entry the backend can stop — nothing runs in the sandbox unbounded.
 * - Outcomes are strings: "u" (undefined), "v" + JSON, "e" + JSON {name, message, stack},
 *   "r" + why the result is not acceptable, "p" (pending: done(callId, outcome) follows).
 *
 * The host functions live only in this closure: the plugin sees frozen wrappers, never them.
 */
import { RoleAssistant, RoleUser, version } from "../../plugins/sdk/index.ts";
import { DEFERRED_SEPARATOR } from "./lazy-fields.ts";
import { CONSOLE_SOURCE } from "./prelude-console.ts";
import { FIELDS_SOURCE } from "./prelude-fields.ts";
import { FETCH_SOURCE } from "./prelude-fetch.ts";
import { BUFFER_GUARD_SOURCE, MEMORY_LEDGER_SOURCE } from "./prelude-memory.ts";
import { WASM_GUARD_SOURCE } from "./prelude-wasm.ts";

export interface PreludeConfig {
  env: Record<string, string>;
  exec: boolean;
  /** `fs.dataDir`: the plugin's own writable folder. */
  dataDir: string;
  /** The manifest asks for WebAssembly (prelude-wasm.ts; isolated-vm only). */
  wasm: boolean;
  maxResultChars: number;
  /** Longest console line (characters) before it is cut. */
  maxLogChars: number;
}

/** Host service name the prelude uses for timers (arguments: [delayMs]). */
export const TIMER_SERVICE = "timer";
/** `done` call id that reports the end of the module's evaluation (top-level await included). */
export const LOAD_CALL_ID = 0;

/** Module specifiers of the synthetic modules the backend compiles around the plugin. */
export const INTERNAL_SPECIFIER = "islet:internal";
export const PLUGIN_SPECIFIER = "islet:plugin";

// Where the prelude leaves the SDK objects for the internal module, which removes them again
// before the plugin's first line runs (the entry module imports it first).
const STASH_KEY = "__isletInternal";

export const PRELUDE_SOURCE = String.raw`
(function isletPrelude(host, config) {
  "use strict";
  const { freeze, defineProperty, keys } = Object;
  const { parse, stringify } = JSON;
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const apply = Reflect.apply;
  const { log: hostLog, call: hostCall, cancel: hostCancel, done: hostDone, field: hostField, reserve: hostReserve } = host;
  const maxResultChars = config.maxResultChars;

  // ── host services ────────────────────────────────────────────────────────────────────────────
  let nextOp = 1;
  const pendingOps = new Map();

  function callHost(name, args) {
    return new PromiseCtor((resolve, reject) => {
      const id = nextOp++;
      pendingOps.set(id, { resolve, reject });
      hostCall(id, name, stringify(args));
    });
  }

  function settle(id, ok, payload) {
    const op = pendingOps.get(id);
    if (op === undefined) return;
    pendingOps.delete(id);
    if (op.timer !== undefined) fireTimer(op.timer, ok, payload);
    else if (ok) op.resolve(payload === undefined ? undefined : parse(payload));
    else op.reject(new ErrorCtor(String(payload)));
  }

  // ── console ──────────────────────────────────────────────────────────────────────────────────
  const console = (${CONSOLE_SOURCE})(hostLog, config.maxLogChars);

  function reportUncaught(where, error) {
    console.error("Uncaught exception in " + where + ":", error);
  }

  // ── timers: one "timer" service call per firing; an interval re-arms before its callback ─────
  let nextTimer = 1;
  const timers = new Map();

  function arm(timer) {
    const id = nextOp++;
    timer.op = id;
    pendingOps.set(id, { timer });
    hostCall(id, ${JSON.stringify(TIMER_SERVICE)}, "[" + timer.delay + "]");
  }

  function addTimer(fn, delay, args, interval) {
    if (typeof fn !== "function") throw new TypeErrorCtor("timers take a function (strings are not evaluated)");
    let ms = Math.floor(Number(delay));
    if (!(ms >= 0)) ms = 0;
    if (ms > 2147483647) ms = 2147483647;
    if (interval && ms < 1) ms = 1;
    const timer = { id: nextTimer++, fn, args, interval, delay: ms, op: 0 };
    timers.set(timer.id, timer);
    arm(timer);
    return timer.id;
  }

  function clearTimer(id) {
    const timer = timers.get(id);
    if (timer === undefined) return;
    timers.delete(id);
    pendingOps.delete(timer.op);
    hostCancel(timer.op);
  }

  function fireTimer(timer, ok, message) {
    if (timers.get(timer.id) !== timer) return;
    if (!ok) {
      timers.delete(timer.id);
      console.error("Timer dropped: " + message);
      return;
    }
    if (timer.interval) arm(timer);
    else timers.delete(timer.id);
    try {
      apply(timer.fn, undefined, timer.args);
    } catch (error) {
      reportUncaught("timer callback", error);
    }
  }

  // ── results: strict JSON, capped while it is being built ─────────────────────────────────────
  // Built-ins JSON would silently turn into {}: a plugin returning one has a bug worth reporting.
  const lossy = new Map([Map, Set, WeakMap, WeakSet, Promise].map((c) => [c.prototype, c.name]));
  const getPrototypeOf = Object.getPrototypeOf;
  const at = (key) => (key === "" ? "" : " at key " + stringify(key));

  function toJson(value) {
    let left = maxResultChars;
    const check = function (key, v) {
      const type = typeof v;
      if (type === "function" || type === "symbol" || type === "bigint") {
        throw new ResultError("a " + (type === "bigint" ? "BigInt" : type) + at(key));
      }
      if (type === "object" && v !== null && lossy.has(getPrototypeOf(v))) {
        throw new ResultError("a " + lossy.get(getPrototypeOf(v)) + at(key));
      }
      left -= (type === "string" ? v.length : 8) + key.length;
      if (left < 0) throw new ResultError("more than " + maxResultChars + " characters");
      return v;
    };
    const json = stringify(value, check);
    if (json.length > maxResultChars) throw new ResultError("more than " + maxResultChars + " characters");
    return json;
  }

  class ResultError extends ErrorCtor {}

  function valueOutcome(value) {
    if (value === undefined) return "u";
    try {
      return "v" + toJson(value);
    } catch (error) {
      if (error instanceof ResultError) return "r" + error.message;
      return "r" + (/circular/i.test(String(error && error.message)) ? "a cycle" : "a value JSON cannot encode (" + String(error && error.message) + ")");
    }
  }

  function errorOutcome(error) {
    let name = "Error", message, stack = "";
    try {
      if (error instanceof ErrorCtor) {
        name = String(error.name);
        message = String(error.message);
        stack = String(error.stack || "");
      } else {
        message = "threw a non-Error value: " + (typeof error === "string" ? error : stringify(error) || String(error));
      }
    } catch {
      message = "threw a value that cannot be printed";
    }
    return "e" + stringify({ name, message: message.slice(0, 4000), stack: stack.slice(0, 4000) });
  }

  // ── entries the backend calls ────────────────────────────────────────────────────────────────
  let exportsNs = freeze({});

  function bind(ns) {
    exportsNs = ns;
    hostDone(${LOAD_CALL_ID}, "u");
  }

  // Arguments as JSON text: the host serialises a hook context once and every plugin parses its
  // own copy, instead of a structured clone of the object per plugin. The context's fields come
  // apart from it, parsed when read (lazy-fields.ts, prelude-fields.ts), their text in pieces.
  const argsOf = (${FIELDS_SOURCE})(hostField, ${JSON.stringify(DEFERRED_SEPARATOR)});

  function invokeJson(callId, name, shapeNumber, shapeNames, argsJson, ...pieces) {
    let args;
    try {
      args = argsOf(callId, shapeNumber, shapeNames, argsJson, pieces);
    } catch (error) {
      return errorOutcome(error);
    }
    return invoke(callId, name, args);
  }

  function invoke(callId, name, args) {
    let result;
    try {
      const fn = exportsNs[name];
      if (typeof fn !== "function") return "e" + stringify({ name: "TypeError", message: "no exported function " + name, stack: "" });
      result = apply(fn, undefined, args);
      if (result === null || (typeof result !== "object" && typeof result !== "function") || typeof result.then !== "function") {
        return valueOutcome(result);
      }
    } catch (error) {
      return errorOutcome(error);
    }
    PromiseCtor.resolve(result).then(
      (value) => hostDone(callId, valueOutcome(value)),
      (error) => hostDone(callId, errorOutcome(error)),
    );
    return "p";
  }

  function describe() {
    const functions = [];
    const values = [];
    const skipped = [];
    for (const name of keys(exportsNs)) {
      try {
        const value = exportsNs[name];
        if (typeof value === "function") functions.push([name, Number(value.length) || 0]);
        else if (value !== undefined) {
          const outcome = valueOutcome(value);
          if (outcome[0] === "v") values.push(stringify(name) + ":" + outcome.slice(1));
          else skipped.push(name);
        }
      } catch {
        skipped.push(name);
      }
    }
    return "{" + '"functions":' + stringify(functions) + ',"skipped":' + stringify(skipped) + ',"values":{' + values.join(",") + "}}";
  }

  // ── globals and SDK objects ──────────────────────────────────────────────────────────────────
  const { fetch, Headers } = (${FETCH_SOURCE})(callHost);

  const pathArg = (path) => {
    if (typeof path !== "string") throw new TypeErrorCtor("path must be a string");
    return path;
  };
  const textArg = (text) => {
    if (typeof text !== "string") throw new TypeErrorCtor("content must be a string");
    return text;
  };
  const fs = freeze({
    readFile: freeze(async (path) => callHost("fs.readFile", [pathArg(path)])),
    writeFile: freeze(async (path, content) => callHost("fs.writeFile", [pathArg(path), textArg(content)])),
    appendFile: freeze(async (path, content) => callHost("fs.appendFile", [pathArg(path), textArg(content)])),
    readdir: freeze(async (path) => callHost("fs.readdir", [pathArg(path)])),
    stat: freeze(async (path) => callHost("fs.stat", [pathArg(path)])),
    exists: freeze(async (path) => callHost("fs.exists", [pathArg(path)])),
    dataDir: String(config.dataDir),
  });

  const exec = freeze(async (command, options) => {
    if (!Array.isArray(command) || command.length === 0 || !command.every((part) => typeof part === "string")) {
      throw new TypeErrorCtor('exec takes an argv array of strings, e.g. ["git", "status"]');
    }
    return callHost("exec", [command, options === undefined ? {} : options]);
  });

  const globals = {
    console,
    setTimeout: freeze((fn, delay, ...args) => addTimer(fn, delay, args, false)),
    setInterval: freeze((fn, delay, ...args) => addTimer(fn, delay, args, true)),
    clearTimeout: freeze((id) => clearTimer(id)),
    clearInterval: freeze((id) => clearTimer(id)),
    queueMicrotask: freeze((fn) => {
      PromiseCtor.resolve().then(() => fn()).catch((error) => reportUncaught("microtask", error));
    }),
    fetch,
    Headers,
    process: freeze({ env: freeze(Object.assign({}, config.env)) }),
  };
  // Memory outside V8's own count goes through the ledger (prelude-memory.ts); WebAssembly only
  // for a plugin that asked for it, and then guarded (prelude-wasm.ts).
  const ledger = hostReserve === undefined ? undefined : (${MEMORY_LEDGER_SOURCE})(hostReserve);
  (${BUFFER_GUARD_SOURCE})(ledger);
  const nativeWasm = globalThis.WebAssembly;
  delete globalThis.WebAssembly;
  if (config.wasm && nativeWasm !== undefined && ledger !== undefined) {
    globals.WebAssembly = (${WASM_GUARD_SOURCE})(nativeWasm, ledger);
  }
  for (const name of keys(globals)) {
    defineProperty(globalThis, name, { value: globals[name], writable: true, configurable: true, enumerable: false });
  }
  defineProperty(globalThis, ${JSON.stringify(STASH_KEY)}, {
    value: freeze({ fs, exec: config.exec ? exec : undefined, bind }),
    configurable: true,
  });

  const recount = () => (ledger === undefined ? 0 : ledger.recount());
  return freeze({ invoke, invokeJson, settle, describe, recount });
})
`;

/** `islet:internal`: takes the SDK objects from the prelude and removes them from globalThis. */
export const INTERNAL_MODULE_SOURCE = `const internal = globalThis[${JSON.stringify(STASH_KEY)}];
delete globalThis[${JSON.stringify(STASH_KEY)}];
export default internal;
`;

/** `@islet/sdk`: the runtime values of plugins/sdk/index.ts (imported, so they cannot drift). */
export const SDK_MODULE_SOURCE = `import internal from ${JSON.stringify(INTERNAL_SPECIFIER)};
export const version = ${JSON.stringify(version)};
export const RoleUser = ${JSON.stringify(RoleUser)};
export const RoleAssistant = ${JSON.stringify(RoleAssistant)};
export const fs = internal.fs;
`;

/** `@islet/sdk/exec`: only resolvable in unsafe mode. */
export const EXEC_MODULE_SOURCE = `import internal from ${JSON.stringify(INTERNAL_SPECIFIER)};
export const exec = internal.exec;
`;

/**
 * The module the backend evaluates: consumes the stash before the plugin's first line runs, then
 * hands the plugin's namespace to the prelude once its evaluation (top-level await too) finished.
 */
export const ENTRY_MODULE_SOURCE = `import internal from ${JSON.stringify(INTERNAL_SPECIFIER)};
import * as plugin from ${JSON.stringify(PLUGIN_SPECIFIER)};
internal.bind(plugin);
`;
