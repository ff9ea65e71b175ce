/**
 * The runtime's work: one model loaded at a time (another model waits for running calls, then
 * replaces it), each chat call generated on it, and failures sorted into what the engine words
 * for the user (memory, a bad file, a missing binary, a full context).
 */
import type { Llama } from "node-llama-cpp";
import {
  toRuntime,
  type ChatCall,
  type FailureKind,
  type FromRuntime,
  type ModelLoad,
} from "../protocol.ts";
import { ContextFullError, generate } from "./generate.ts";
import { LoadedModel } from "./loaded-model.ts";
import { InsufficientMemoryError, NoBinaryFoundError } from "./llama-values.ts";
import { finiteNumberGrammar } from "./number-grammar.ts";

const OUT_OF_MEMORY = /insufficient memory|failed to allocate|unable to allocate|out of memory/i;

class ModelLoadError extends Error {
  readonly kind: FailureKind;
  constructor(kind: FailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

export function failure(err: unknown): { kind: FailureKind; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ModelLoadError) return { kind: err.kind, message };
  if (err instanceof InsufficientMemoryError) return { kind: "memory", message };
  if (err instanceof NoBinaryFoundError) return { kind: "binary", message };
  if (err instanceof ContextFullError) return { kind: "context", message };
  return { kind: "internal", message };
}

export interface HostOptions {
  llama: Promise<Llama>;
  send: (message: FromRuntime) => void;
  /** llama.cpp's recent log lines: a failed load says why only there ("insufficient memory…"). */
  recentLog: string[];
  useMmap?: boolean;
}

export class Runtime {
  private loaded: LoadedModel | undefined;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly active = new Map<number, AbortController>();
  private readonly opts: HostOptions;

  constructor(opts: HostOptions) {
    this.opts = opts;
    try {
      finiteNumberGrammar();
    } catch (err) {
      // Calls still work: generate.ts turns an unusable number into a tool error the model sees.
      process.stderr.write(`local runtime: ${(err as Error).message}\n`);
    }
  }

  /** A message from the engine, checked against protocol.ts; false when it does not fit. */
  receive(raw: unknown): boolean {
    const parsed = toRuntime.safeParse(raw);
    if (!parsed.success) {
      process.stderr.write(
        `local runtime: unreadable message: ${parsed.error.issues[0]?.message}\n`,
      );
      return false;
    }
    const message = parsed.data;
    if (message.type === "stop") this.active.get(message.id)?.abort();
    else void this.chat(message);
    return true;
  }

  private model(load: ModelLoad): Promise<{ loaded: LoadedModel; loadMs: number }> {
    const run = this.lock.then(async () => {
      const current = this.loaded;
      // The engine asks again with the window it was given (it may be below what it asked first).
      const same =
        current?.load.file === load.file &&
        (current.load.contextSize === load.contextSize || current.contextSize === load.contextSize);
      if (current && same) return { loaded: current, loadMs: 0 };
      if (current) {
        this.loaded = undefined;
        await current.idle();
        await current.dispose();
      }
      const llama = await this.opts.llama;
      const log = this.opts.recentLog;
      log.length = 0;
      try {
        this.loaded = await LoadedModel.open(llama, load, { useMmap: this.opts.useMmap });
      } catch (err) {
        if (err instanceof InsufficientMemoryError) throw err;
        const oom = log.find((l) => OUT_OF_MEMORY.test(l));
        if (oom) throw new ModelLoadError("memory", oom.replace(/^\S+:\s*/, ""));
        throw new ModelLoadError("model", err instanceof Error ? err.message : String(err));
      }
      return { loaded: this.loaded, loadMs: this.loaded.loadMs };
    });
    this.lock = run.catch(() => undefined);
    return run;
  }

  private async chat(call: ChatCall): Promise<void> {
    const controller = new AbortController();
    this.active.set(call.id, controller);
    try {
      const { loaded, loadMs } = await this.model(call.model);
      if (controller.signal.aborted) return;
      await generate(loaded, call, controller.signal, this.opts.send, loadMs);
    } catch (err) {
      this.opts.send({ type: "failed", id: call.id, ...failure(err) });
    } finally {
      this.active.delete(call.id);
    }
  }
}
