/**
 * One local runtime per engine process: every `local` provider instance (they are rebuilt when
 * providers.yaml changes) shares it, so a model is loaded once and kept between turns.
 */
import { LocalRuntime, type LocalRuntimeOptions } from "./runtime-process.ts";

let shared: LocalRuntime | undefined;
let sharedOptions = "";

/** The shared runtime; different options (another unload time, thread count) replace it. */
export function sharedRuntime(opts: LocalRuntimeOptions = {}): LocalRuntime {
  const key = JSON.stringify(opts);
  if (!shared || key !== sharedOptions) {
    void shared?.unload();
    shared = new LocalRuntime(opts);
    sharedOptions = key;
  }
  return shared;
}

/** Stops the shared runtime (engine shutdown); the next call starts it again. */
export async function unloadSharedRuntime(): Promise<void> {
  await shared?.unload();
}
