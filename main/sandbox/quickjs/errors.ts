/**
 * Exceptions out of QuickJS, and the engine's own faults among them. QuickJS reports running out
 * of memory, stack or string length as ordinary InternalErrors; the backend makes the first fatal
 * (the sandbox ran out, like an isolate at its heap limit) and words the others as V8 does, so a
 * plugin author reads the same message whichever backend runs the plugin.
 */
import type { QuickJSContext, QuickJSHandle, VmCallResult } from "quickjs-emscripten";

/** What the plugin threw (or the engine raised), copied out of the sandbox. */
export interface GuestError {
  name: string;
  message: string;
  stack: string;
}

/** A host-side error carrying a guest exception; anything else thrown out of QuickJS is a host failure. */
export class GuestThrew extends Error {
  readonly guest: GuestError;
  constructor(guest: GuestError) {
    super(guest.message);
    this.guest = guest;
  }
}

/** The value of a call result, or GuestThrew with what the sandbox threw. */
export function unwrap(
  context: QuickJSContext,
  result: VmCallResult<QuickJSHandle>,
): QuickJSHandle {
  if (result.error) throw new GuestThrew(guestError(context, result.error));
  return result.value;
}

/**
 * Copies an exception out of the sandbox and frees its handle. Copying may run plugin code
 * (getters, toJSON of a thrown object), so callers do it inside an entry, under its budget.
 */
export function guestError(context: QuickJSContext, handle: QuickJSHandle): GuestError {
  let dumped: unknown;
  try {
    dumped = context.dump(handle);
  } catch {
    dumped = undefined;
  } finally {
    if (handle.alive) handle.dispose();
  }
  if (dumped !== null && typeof dumped === "object" && "message" in dumped) {
    const { name, message, stack } = dumped as Record<string, unknown>;
    return { name: String(name ?? "Error"), message: String(message), stack: String(stack ?? "") };
  }
  let text: string;
  try {
    text = typeof dumped === "string" ? dumped : String(JSON.stringify(dumped));
  } catch {
    text = String(dumped);
  }
  return { name: "Error", message: `threw a non-Error value: ${text}`, stack: "" };
}

export function isOutOfMemory(error: GuestError): boolean {
  return error.name === "InternalError" && error.message.startsWith("out of memory");
}

export function isInterrupted(error: GuestError): boolean {
  return error.name === "InternalError" && error.message === "interrupted";
}

/** QuickJS's resource errors that V8 words differently (both are RangeErrors there). */
const V8_WORDING: Readonly<Record<string, string>> = {
  "stack overflow": "Maximum call stack size exceeded",
  "string too long": "Invalid string length",
};

/** The error as V8 would word it, where only the wording differs. */
export function inV8Words(error: GuestError): GuestError {
  const message = error.name === "InternalError" ? V8_WORDING[error.message] : undefined;
  return message === undefined ? error : { ...error, name: "RangeError", message };
}

export const OUT_OF_MEMORY = Symbol("out of memory");

/**
 * A prelude outcome as the host should read it: an "e" outcome holding QuickJS's out-of-memory
 * error becomes OUT_OF_MEMORY; its other resource errors are reworded.
 */
export function translateOutcome(outcome: unknown): unknown {
  if (typeof outcome !== "string" || !outcome.startsWith("e{")) return outcome;
  let error: GuestError;
  try {
    error = JSON.parse(outcome.slice(1)) as GuestError;
  } catch {
    return outcome;
  }
  if (isOutOfMemory(error)) return OUT_OF_MEMORY;
  const worded = inV8Words(error);
  return worded === error ? outcome : "e" + JSON.stringify(worded);
}
