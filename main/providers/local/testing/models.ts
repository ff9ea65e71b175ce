/**
 * The test models the local provider's tests and benchmarks share, written into a temporary
 * models folder. Their text is noise; each is shaped for one structure (see tiny-gguf.ts).
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { CALL_OPENING, writeTinyGguf, type TinyGgufOptions } from "./tiny-gguf.ts";

/** Every answer opens a tool call right away: `<tool_call>` then `{"name": "`. */
const CALLS: TinyGgufOptions = {
  follow: { "\n": "<tool_call>", "<tool_call>": CALL_OPENING },
  // Close strings soon.
  bias: { '"': 4 },
};

export const TEST_MODELS = {
  /** Plain ChatML, answers end at random. */
  tiny: {},
  /** Never writes its end token: answers run to maxTokens (streaming, Stop, benchmarks). */
  endless: { bias: { "<|im_end|>": -40 } },
  /** ChatML (no tools in its template): Islet's text protocol with a grammar. */
  caller: CALLS,
  /** Qwen 2.5's template with tools: the model's own function calling. */
  "qwen-caller": { ...CALLS, chatTemplate: "qwen-tools" },
  /** Opens with `<think> the</think>` then answers. */
  thinker: {
    follow: { "\n": "<think>", "<think>": " the", " the": "</think>", "</think>": " Hello" },
    bias: { "<|im_end|>": -40 },
  },
  /** Trained on 256 tokens only: a long prompt does not fit. */
  short: { contextLength: 256 },
} satisfies Record<string, TinyGgufOptions>;

export type TestModel = keyof typeof TEST_MODELS;

export interface ModelsFolder {
  dir: string;
  file(name: TestModel): string;
  remove(): Promise<void>;
}

/** A temporary models folder holding the named test models. */
export async function writeTestModels(names: TestModel[]): Promise<ModelsFolder> {
  const root = await mkdtemp(path.join(tmpdir(), "islet-local-models-"));
  const dir = path.join(root, "models");
  await mkdir(dir);
  for (const name of names) await writeTinyGguf(path.join(dir, `${name}.gguf`), TEST_MODELS[name]);
  return {
    dir,
    file: (name) => path.join(dir, `${name}.gguf`),
    remove: () => rm(root, { recursive: true, force: true }),
  };
}

/** Runtime options for tests: one thread (the machine is shared), CPU only. */
export const TEST_RUNTIME = { threads: 1, gpu: false } as const;
