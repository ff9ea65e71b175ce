// The tables Islet reads GGUF headers with, checked against the llama.cpp that will load the
// files (node-llama-cpp's prebuilt binding and its enums): an upgrade that adds a tensor type,
// a file type or an architecture fails here instead of calling new files broken.
import assert from "node:assert/strict";
import { test } from "node:test";
import * as llamaCpp from "node-llama-cpp";
import { getLlama, GgufFileType } from "node-llama-cpp";
import { KNOWN_ARCHITECTURES } from "./architectures.ts";
import { FILE_TYPE_NAMES, GGML_TYPE_SIZES } from "./ggml.ts";

interface SizeBindings {
  getTypeSizeForGgmlType(type: number): number | undefined;
  getBlockSizeForGgmlType(type: number): number | undefined;
}

test("tensor type sizes match the bundled llama.cpp's", async () => {
  const llama = await getLlama({ build: "never", gpu: false });
  // Not public API: the only place the binding says how big each type's blocks are.
  const b = (llama as unknown as { _bindings: SizeBindings })._bindings;
  for (let type = 0; type < 64; type++) {
    const block = b.getBlockSizeForGgmlType(type);
    const bytes = b.getTypeSizeForGgmlType(type);
    const ours = GGML_TYPE_SIZES[type];
    if (!block || !bytes) assert.equal(ours, undefined, `type ${type} is gone from llama.cpp`);
    else assert.deepEqual(ours, [block, bytes], `type ${type}`);
  }
  await llama.dispose();
});

test("file type names and architectures match node-llama-cpp's", () => {
  for (const [key, value] of Object.entries(GgufFileType)) {
    if (typeof value !== "number") continue;
    assert.equal(FILE_TYPE_NAMES[value], key.replace(/^(MOSTLY|ALL)_/, ""), `file type ${value}`);
  }
  // A const enum in the typings, an object at run time.
  const archs = (llamaCpp as unknown as Record<string, Record<string, string>>)
    .GgufArchitectureType;
  const theirs = new Set<string>(Object.values(archs));
  theirs.delete("(unknown)");
  assert.deepEqual([...KNOWN_ARCHITECTURES].sort(), [...theirs].sort());
});
