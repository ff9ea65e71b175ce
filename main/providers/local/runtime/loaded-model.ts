/**
 * One loaded model and its conversation caches: each conversation's evaluated tokens (its KV
 * cache) stay in a context of its own between turns, so a turn evaluates only what is new. The
 * first context is created with the model, fitted to the memory free now; a second conversation
 * (a sub-agent, another window) gets a second context when memory allows, else the conversation
 * used longest ago gives its place up. Separate contexts rather than one context with two
 * sequences: llama.cpp generates ~20% slower over a two-sequence cache.
 */
import { freemem } from "node:os";
import { InsufficientMemoryError, resolveChatWrapper } from "./llama-values.ts";
import type {
  ChatWrapper,
  Llama,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
} from "node-llama-cpp";
import type { ModelLoad } from "../protocol.ts";

/** Smallest useful window: below this the fit is a memory failure, not a smaller context. */
const MIN_CONTEXT = 2048;
/** Conversations whose caches are kept at once. */
const MAX_CONTEXTS = 2;
/** Another conversation's cache is added only while it takes at most this share of free memory. */
const EXTRA_CONTEXT_SHARE = 0.5;

interface Slot {
  context: LlamaContext;
  sequence: LlamaContextSequence;
  key: string;
  busy: boolean;
  lastUsed: number;
}

export class LoadedModel {
  readonly load: ModelLoad;
  readonly model: LlamaModel;
  /** The chat wrapper node-llama-cpp resolved from the file (template, name, architecture). */
  readonly wrapper: ChatWrapper;
  readonly loadMs: number;
  private readonly slots: Slot[] = [];
  private readonly waiting: (() => void)[] = [];
  /** A context being added (one at a time). */
  private growing = false;

  private constructor(
    load: ModelLoad,
    model: LlamaModel,
    context: LlamaContext,
    wrapper: ChatWrapper,
    loadMs: number,
  ) {
    this.load = load;
    this.model = model;
    this.wrapper = wrapper;
    this.loadMs = loadMs;
    this.slots.push(slot(context));
  }

  static async open(
    llama: Llama,
    load: ModelLoad,
    opts: { useMmap?: boolean } = {},
  ): Promise<LoadedModel> {
    const started = performance.now();
    const model = await llama.loadModel({
      modelPath: load.file,
      ...(opts.useMmap !== undefined ? { useMmap: opts.useMmap } : {}),
    });
    try {
      const wanted = Math.min(load.contextSize, model.trainContextSize || load.contextSize);
      // The engine already fitted the window to this machine: ask for exactly that (fast).
      const exact = model.createContext({ contextSize: wanted });
      exact.catch(() => undefined);
      // Compiles the Jinja template and compares it with the known formats, while llama.cpp
      // allocates the context's cache on its own thread.
      const wrapper = resolveChatWrapper(model);
      let context: LlamaContext;
      try {
        context = await exact;
      } catch (err) {
        if (!(err instanceof InsufficientMemoryError)) throw err;
        // Less memory free than the machine has: as much as fits now.
        context = await model.createContext({
          contextSize: { min: Math.min(MIN_CONTEXT, wanted), max: wanted },
        });
      }
      return new LoadedModel(load, model, context, wrapper, performance.now() - started);
    } catch (err) {
      await model.dispose();
      throw err;
    }
  }

  get contextSize(): number {
    return this.slots[0].context.contextSize;
  }

  /** Conversations whose caches are kept now. */
  get sequences(): number {
    return this.slots.length;
  }

  get busy(): boolean {
    return this.slots.some((s) => s.busy);
  }

  /**
   * A sequence for a conversation: its own if free, else an unused one, else a new context if
   * memory allows, else the free one used longest ago (its conversation will read its prompt
   * again next time).
   */
  async acquire(key: string): Promise<{ sequence: LlamaContextSequence; release: () => void }> {
    for (;;) {
      const free = this.slots.filter((s) => !s.busy);
      let chosen = free.find((s) => s.key === key) ?? free.find((s) => s.key === "");
      if (!chosen && !this.slots.some((s) => s.key === key)) chosen = await this.grow();
      chosen ??= free.sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (chosen && !chosen.busy) return this.take(chosen, key);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private take(s: Slot, key: string): { sequence: LlamaContextSequence; release: () => void } {
    s.busy = true;
    s.key = key;
    return {
      sequence: s.sequence,
      release: () => {
        s.busy = false;
        s.lastUsed = performance.now();
        this.waiting.shift()?.();
      },
    };
  }

  /** Another context of the same size, when there is room for one; undefined otherwise. */
  private async grow(): Promise<Slot | undefined> {
    if (this.growing || this.slots.length >= MAX_CONTEXTS) return undefined;
    this.growing = true;
    try {
      const size = this.contextSize;
      const need = await this.model.fileInsights.estimateContextResourceRequirementsV2({
        contextSize: size,
        modelGpuLayers: this.model.gpuLayers,
      });
      if (need.cpuRam + need.gpuVram > freemem() * EXTRA_CONTEXT_SHARE) return undefined;
      const added = slot(await this.model.createContext({ contextSize: size }));
      this.slots.push(added);
      return added;
    } catch {
      return undefined;
    } finally {
      this.growing = false;
    }
  }

  /** Resolves once no conversation is generating (before the model is swapped out). */
  async idle(): Promise<void> {
    while (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  async dispose(): Promise<void> {
    for (const s of this.slots) await s.context.dispose();
    await this.model.dispose();
  }
}

function slot(context: LlamaContext): Slot {
  return { context, sequence: context.getSequence(), key: "", busy: false, lastUsed: 0 };
}
