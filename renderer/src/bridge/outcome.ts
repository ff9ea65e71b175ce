/** How a call's outcome from a transport becomes a value or a thrown error for the UI. */
import "./zod-csp.ts";
import { BridgeError, CallCancelled, type Outcome } from "../../../main/bridge/contract.ts";

export function settle<T>(name: string, outcome: Outcome<T>): T {
  if (outcome.ok) return outcome.result;
  if ("cancelled" in outcome) throw new CallCancelled(name);
  throw new BridgeError(outcome.problem);
}

/** Links a caller's AbortSignal to a transport's cancel, until the call ends. */
export function onAbort(signal: AbortSignal | undefined, cancel: () => void): () => void {
  signal?.addEventListener("abort", cancel, { once: true });
  return () => signal?.removeEventListener("abort", cancel);
}
