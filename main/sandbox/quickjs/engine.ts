/**
 * Entering a plugin's QuickJS instance, for module.ts: every way in runs under a deadline
 * that the interrupt handler enforces, ends by draining the promise jobs it queued, and turns what
 * comes out into a SandboxFault — timeout, memory or exception — the way the isolated-vm backend
 * classifies what comes out of applySync.
 */
import type { JSModuleLoader, JSModuleNormalizer, QuickJSHandle } from "quickjs-emscripten";
import { messageOf } from "../host-bridge.ts";
import { guestError, GuestThrew, inV8Words, isOutOfMemory, unwrap } from "./errors.ts";
import { createQuickJsVm, heapBytes, toHandle, type QuickJsVm } from "./setup.ts";
import { SandboxFault, type SandboxLimits } from "../types.ts";

/** Promise jobs run between two checks of the deadline by the host. */
const JOB_BATCH = 64;
const INTERRUPTED = { name: "InternalError", message: "interrupted", stack: "" };

export type EntryArg = string | number | boolean | undefined;

/**
 * Told of every entry: a native built-in the interrupt handler cannot reach may overrun one, and
 * then only something outside this thread can stop it (the watchdog, watchdog.ts).
 */
export interface EntryWatch {
  enter(budgetMs: number): void;
  leave(): void;
}

export interface EngineHooks {
  /** A fatal fault: the owner stops the sandbox (and calls stop()); returns the fault to report. */
  fatal(fault: SandboxFault): SandboxFault;
  /** The fault for a way in after stop(). */
  stopped(): SandboxFault;
  /** A line for the plugin's log. */
  notice(text: string): void;
  watch?: EntryWatch;
}

export class QuickJsEngine {
  readonly #limits: SandboxLimits;
  readonly #hooks: EngineHooks;
  #vm?: QuickJsVm;
  /** performance.now() after which the interrupt handler stops the sandbox. */
  #deadline = Infinity;
  #interrupted = false;

  constructor(limits: SandboxLimits, hooks: EngineHooks) {
    this.#limits = limits;
    this.#hooks = hooks;
  }

  /** The interrupt fired: whatever the sandbox made of it, the entry timed out. */
  get interrupted(): boolean {
    return this.#interrupted;
  }

  get vm(): QuickJsVm {
    if (!this.#vm) throw this.#hooks.stopped();
    return this.#vm;
  }

  async start(modules: { load: JSModuleLoader; normalize: JSModuleNormalizer }): Promise<void> {
    this.#vm = await createQuickJsVm({
      memoryMb: this.#limits.memoryMb,
      shouldInterrupt: () => this.#shouldInterrupt(),
      modules,
    });
  }

  /**
   * Drops the instance without another call into it: its memory goes with the last reference,
   * and one a host failure left in an unknown state is never touched again. If this happens from
   * inside an entry (a host callback), the interpreter stops at its next poll.
   */
  stop(): void {
    this.#deadline = -Infinity;
    this.#vm = undefined;
  }

  heapUsed(): number {
    return this.#vm ? heapBytes(this.#vm.runtime) : 0;
  }

  /** Calls a prelude entry within `budgetMs`; returns its outcome string. */
  enter(entry: QuickJSHandle, args: EntryArg[], budgetMs: number, what: string): string {
    return this.guarded(what, budgetMs, ({ context }) => {
      const handles = args.map((arg) => toHandle(context, arg));
      const result = context.callFunction(entry, context.undefined, handles);
      // Only reached when QuickJS returned normally: the instance is sound enough to free them.
      for (const handle of handles) handle.dispose();
      const value = unwrap(context, result);
      try {
        return context.getString(value);
      } finally {
        value.dispose();
      }
    });
  }

  /** Runs `step` and then the promise jobs it queued, within `budgetMs`; errors become faults. */
  guarded<T>(what: string, budgetMs: number, step: (vm: QuickJsVm) => T): T {
    const vm = this.vm;
    this.#deadline = performance.now() + budgetMs;
    this.#hooks.watch?.enter(budgetMs);
    try {
      const value = step(vm);
      this.#drainJobs(vm);
      // The interruption may have been swallowed (an async function rejects with it), or never
      // polled for: a native call (a sort, BigInt arithmetic) ran past the deadline and returned
      // before the watchdog's grace ran out.
      if (this.#interrupted || this.#shouldInterrupt()) throw this.timeoutFault(what);
      return value;
    } catch (error) {
      throw this.#faultFrom(error, what);
    } finally {
      this.#hooks.watch?.leave();
      if (this.#vm) this.#deadline = Infinity;
    }
  }

  timeoutFault(what: string): SandboxFault {
    const ms = this.#limits.callTimeoutMs;
    return this.#hooks.fatal(
      new SandboxFault("timeout", `${what} ran past the ${ms} ms call budget`),
    );
  }

  memoryFault(what: string): SandboxFault {
    const mb = this.#limits.memoryMb;
    return this.#hooks.fatal(
      new SandboxFault("memory", `the plugin ran out of memory (limit ${mb} MB) in ${what}`),
    );
  }

  /** For long native calls the interrupt handler cannot reach (harden.ts). */
  overdue(): boolean {
    return this.#shouldInterrupt();
  }

  #shouldInterrupt(): boolean {
    if (performance.now() <= this.#deadline) return false;
    this.#interrupted = true;
    return true;
  }

  /**
   * Runs the promise jobs in batches: a plugin that catches the interruption in a promise chain
   * and queues more work would otherwise keep one executePendingJobs call going for ever.
   */
  #drainJobs({ runtime }: QuickJsVm): void {
    for (;;) {
      const result = runtime.executePendingJobs(JOB_BATCH);
      if (result.error) {
        const error = new GuestThrew(guestError(result.error.context, result.error));
        // The prelude catches what plugin jobs throw; what gets here is the engine stopping a job.
        if (this.#interrupted || isOutOfMemory(error.guest) || !this.#vm) throw error;
        this.#hooks.notice(`Uncaught exception in a promise job: ${error.message}`);
      } else if (result.value < JOB_BATCH) {
        return;
      }
      if (this.#shouldInterrupt()) throw new GuestThrew(INTERRUPTED);
    }
  }

  /** Classifies an error out of QuickJS; fatal ones stop the sandbox. */
  #faultFrom(error: unknown, what: string): SandboxFault {
    if (error instanceof SandboxFault) return error;
    if (!this.#vm) return this.#hooks.stopped();
    if (!(error instanceof GuestThrew)) {
      // A host exception unwound through the interpreter (host stack overflow, a WASM trap):
      // its state is unknown, so the instance is dropped without another call into it.
      const why = /call stack/i.test(messageOf(error))
        ? "exhausted the stack (recursion too deep for the interpreter)"
        : `stopped the interpreter (${messageOf(error)})`;
      return this.#hooks.fatal(new SandboxFault("memory", `the plugin ${why} in ${what}`));
    }
    if (this.#interrupted) return this.timeoutFault(what);
    if (isOutOfMemory(error.guest)) return this.memoryFault(what);
    const guest = inV8Words(error.guest);
    const label = guest.name && guest.name !== "Error" ? `${guest.name}: ` : "";
    return new SandboxFault("exception", `${label}${guest.message}`, { cause: guest });
  }
}
