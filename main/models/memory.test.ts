import assert from "node:assert/strict";
import { test } from "node:test";
import type { GgufInfo } from "./gguf-info.ts";
import {
  DEFAULT_LOCAL_CONTEXT,
  fitContextSize,
  kvBytesPerToken,
  memoryFit,
  memoryNeeded,
  memoryShortfall,
} from "./memory.ts";

const GB = 1024 ** 3;

/** A 7B-shaped model: 32 layers, 8 KV heads of 128, 4 GB of weights, trained on 32k. */
const info: GgufInfo = {
  architecture: "llama",
  name: null,
  parameterCount: 7e9,
  contextLength: 32_768,
  fileType: "Q4_K_M",
  blockCount: 32,
  embeddingLength: 4096,
  headCount: 32,
  headCountKv: 8,
  keyLength: 0,
  valueLength: 0,
  hasChatTemplate: true,
  thinking: false,
  fileSize: 4 * GB,
};

test("KV cache per token: keys and values of every layer, f16", () => {
  assert.equal(kvBytesPerToken(info), 32 * 8 * (128 + 128) * 2);
  assert.equal(kvBytesPerToken({ ...info, keyLength: 192, valueLength: 128 }), 32 * 8 * 320 * 2);
});

test("the local window: configured or 16k, at most the trained length, fitted to memory", () => {
  assert.equal(fitContextSize(info, undefined, 64 * GB), DEFAULT_LOCAL_CONTEXT);
  assert.equal(fitContextSize(info, 65_536, 64 * GB), 32_768, "no more than trained");
  assert.equal(fitContextSize({ ...info, contextLength: 4096 }, undefined, 64 * GB), 4096);
  // 8 GB: 5.6 GB for model and cache, 4 GB weights, 1 GB reserve → ~0.6 GB of cache.
  const small = fitContextSize(info, undefined, 8 * GB);
  const perToken = kvBytesPerToken(info);
  assert.equal(small % 256, 0);
  assert.ok(small * perToken <= 8 * GB * 0.7 - 5 * GB, `${small} tokens fit`);
  assert.ok((small + 256) * perToken > 8 * GB * 0.7 - 5 * GB, `${small + 256} tokens would not`);
  assert.equal(fitContextSize(info, undefined, 4 * GB), 2048, "never below the smallest useful");
});

test("a model that cannot load at all says how much it needs; the manager's fit agrees it is too big", () => {
  assert.equal(memoryShortfall(info, 64 * GB), undefined);
  const need = memoryShortfall(info, 4 * GB);
  assert.equal(need, 4 * GB + kvBytesPerToken(info) * 2048 + GB);
  assert.equal(memoryFit(memoryNeeded(info), 4 * GB), "too-big");
});
