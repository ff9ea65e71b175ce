/**
 * One loaded model: its context, fitted to the memory this machine has, and a small pool of
 * context sequences, each holding one conversation's evaluated tokens (its KV cache) between
 * turns. A conversation goes back to the sequence it used last, so a turn evaluates only what is
 * new; with more conversations than sequences, the one used longest ago gives its place up.
 */
import { freemem } from "node:os";
import {
  resolveChatWrapper,
  type ChatWrapper,
  type Llama,
  type LlamaContext,
  type LlamaContextSequence,
  type LlamaModel,
} from "node-llama-cpp";
import type { ModelLoad } from "../protocol.ts";

/** Smallest useful window: below this the fit is a memory failure, not a smaller context. */
const MIN_CONTEXT = 2048;
/** A second conversation's cache is kept only when both fit in this share of free memory. */
const SECOND_SEQUENCE_SHARE = 0.5;

interface Slot {
  sequence: LlamaContextSequence;
  key: string;
  busy: boolean;
  lastUsed: number;
}

export class LoadedModel {
  readonly load: ModelLoad;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  /** The chat wrapper node-llama-cpp resolved from the file (template, name, architecture). */
  readonly wrapper: ChatWrapper;
  readonly loadMs: number;
  private readonly slots: Slot[];
  private readonly waiting: (() => void)[] = [];

  private constructor(load: ModelLoad, model: LlamaModel, context: LlamaContext, loadMs: number) {
    this.load = load;
    this.model = model;
    this.context = context;
    this.loadMs = loadMs;
    this.wrapper = resolveChatWrapper(model);
    this.slots = [];
    for (let i = 0; i < context.totalSequences; i++) {
      this.slots.push({ sequence: context.getSequence(), key: "", busy: false, lastUsed: 0 });
    }
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
      const sequences = (await secondFits(model, wanted)) ? 2 : 1;
      const context = await model.createContext({
        sequences,
        contextSize: { min: Math.min(MIN_CONTEXT, wanted), max: wanted },
      });
      return new LoadedModel(load, model, context, performance.now() - started);
    } catch (err) {
      await model.dispose();
      throw err;
    }
  }

  get contextSize(): number {
    return this.context.contextSize;
  }

  get sequences(): number {
    return this.slots.length;
  }

  get busy(): boolean {
    return this.slots.some((s) => s.busy);
  }

  /** A sequence for a conversation: its own if free, else the least recently used free one. */
  async acquire(key: string): Promise<{ sequence: LlamaContextSequence; release: () => void }> {
    for (;;) {
      const free = this.slots.filter((s) => !s.busy);
      const slot =
        free.find((s) => s.key === key) ?? free.sort((a, b) => a.lastUsed - b.lastUsed)[0];
      if (slot) {
        slot.busy = true;
        slot.key = key;
        return {
          sequence: slot.sequence,
          release: () => {
            slot.busy = false;
            slot.lastUsed = performance.now();
            this.waiting.shift()?.();
          },
        };
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  /** Resolves once no conversation is generating (before the model is swapped out). */
  async idle(): Promise<void> {
    while (this.busy) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  async dispose(): Promise<void> {
    await this.context.dispose();
    await this.model.dispose();
  }
}

async function secondFits(model: LlamaModel, contextSize: number): Promise<boolean> {
  try {
    const need = await model.fileInsights.estimateContextResourceRequirementsV2({
      contextSize,
      modelGpuLayers: model.gpuLayers,
      sequences: 2,
    });
    return need.cpuRam + need.gpuVram <= freemem() * SECOND_SEQUENCE_SHARE;
  } catch {
    return false;
  }
}
