/**
 * Evaluating a plugin's module graph in QuickJS, top-level await included: the entry module
 * reports the end of evaluation through the prelude's `done(0)`; until then the load waits, on
 * the call budget, for the host calls and timers the top-level code awaits. Unlike V8 under
 * isolated-vm, QuickJS hands back the evaluation promise, so a top-level await that rejects fails
 * the load at once instead of at the end of the budget.
 */
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten";
import { pluginFrame, withWasmAdvice } from "../outcome.ts";
import { guestError, type GuestError } from "./errors.ts";
import { SandboxFault } from "../types.ts";

export class QuickJsLoading {
  readonly #filename: string;
  readonly #budgetMs: number;
  #evaluated = false;
  // The evaluation promise. Never freed on its own: it goes with the instance.
  #promise?: QuickJSHandle;
  #waiting?: { resolve: () => void; reject: (fault: SandboxFault) => void };

  constructor(filename: string, budgetMs: number) {
    this.#filename = filename;
    this.#budgetMs = budgetMs;
  }

  /** Still waiting for a top-level await. */
  get pending(): boolean {
    return this.#waiting !== undefined && !this.#evaluated;
  }

  /**
   * Runs `evaluate` (the guarded evalCode of the entry) and waits for the end of evaluation.
   * Rejects with SandboxFault("load"); a refused import keeps checkImport's own message.
   */
  async evaluate(
    evaluate: () => QuickJSHandle,
    refused: () => SandboxFault | undefined,
  ): Promise<void> {
    try {
      this.#promise = evaluate();
    } catch (error) {
      throw refused() ?? this.#loadFault(error);
    }
    if (this.#evaluated) return;
    const filename = this.#filename;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new SandboxFault(
              "load",
              `${filename}: top-level await did not finish within ${this.#budgetMs} ms (or failed after awaiting)`,
            ),
          ),
        this.#budgetMs,
      );
      this.#waiting = {
        resolve: () => (clearTimeout(timer), resolve()),
        reject: (fault) => (
          clearTimeout(timer),
          reject(
            fault.kind === "load"
              ? fault
              : new SandboxFault("load", fault.message, { cause: fault }),
          )
        ),
      };
    });
  }

  /** `done(0)`: the entry module finished. */
  evaluated(): void {
    this.#evaluated = true;
    this.#waiting?.resolve();
  }

  /** After async work during the load: a rejected top-level await fails the load now. Call within an entry's budget. */
  check(context: QuickJSContext): void {
    if (!this.pending || !this.#promise) return;
    const state = context.getPromiseState(this.#promise);
    if (state.type === "fulfilled" && !state.notAPromise) state.value.dispose();
    if (state.type !== "rejected") return;
    this.#waiting?.reject(this.#thrownWhileLoading(guestError(context, state.error)));
  }

  fail(fault: SandboxFault): void {
    this.#waiting?.reject(fault);
  }

  #loadFault(error: unknown): SandboxFault {
    if (!(error instanceof SandboxFault)) {
      return new SandboxFault("load", `${this.#filename}: ${String(error)}`, { cause: error });
    }
    if (error.kind !== "exception") {
      return new SandboxFault("load", error.message, { cause: error });
    }
    return this.#thrownWhileLoading(error.cause as GuestError);
  }

  #thrownWhileLoading(error: GuestError): SandboxFault {
    const label = error.name && error.name !== "Error" ? `${error.name}: ` : "";
    const frame = pluginFrame(error.stack, this.#filename);
    const at = frame ? ` (at ${frame})` : "";
    // QuickJS compiles imported modules while linking, so syntax errors arrive here too.
    const text =
      error.name === "SyntaxError"
        ? `${this.#filename}: ${label}${error.message}${at}`
        : `${this.#filename} failed while loading: ${label}${error.message}${at}`;
    return new SandboxFault("load", withWasmAdvice(text), { cause: error });
  }
}
