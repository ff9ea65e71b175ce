import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile, truncate, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { readGgufFileInfo } from "node-llama-cpp";
import { readGgufInfo } from "./gguf-info.ts";
import { ModelFileError } from "./errors.ts";
import { ggufBytes, llamaSpec, writeGguf } from "./testing/gguf-writer.ts";
import { writeTinyGguf } from "../providers/local/testing/tiny-gguf.ts";

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "islet-gguf-"));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rejectsWith(file: string, pattern: RegExp): Promise<void> {
  await assert.rejects(readGgufInfo(file), (err: unknown) => {
    assert.ok(err instanceof ModelFileError, `a ModelFileError, got ${String(err)}`);
    assert.match(err.message, new RegExp(`^${path.basename(file).replace(/\./g, "\\.")}: `));
    assert.match(err.message, pattern);
    assert.ok(!err.message.includes("\n"), "one line");
    return true;
  });
}

test("a valid file: architecture, parameters, context, quantization, as node-llama-cpp reads it", async () => {
  const file = path.join(dir, "ok.gguf");
  const bytes = await writeGguf(file, llamaSpec());
  const info = await readGgufInfo(file);
  assert.equal(info.architecture, "llama");
  assert.equal(info.name, "Test Llama");
  assert.equal(info.parameterCount, 64 * 4 + 2 * (256 * 64 * 2));
  assert.equal(info.contextLength, 4096);
  assert.equal(info.fileType, "Q4_K_M");
  assert.equal(info.blockCount, 2);
  assert.equal(info.headCountKv, 2);
  assert.equal(info.hasChatTemplate, true);
  assert.equal(info.fileSize, bytes.length);

  const theirs = await readGgufFileInfo(file, { readTensorInfo: true });
  assert.equal(theirs.metadata.general.architecture, info.architecture);
  assert.equal(theirs.metadata.general.file_type, 15);
  assert.equal(theirs.tensorInfo?.length, 5);
  const theirParams = (theirs.tensorInfo ?? []).reduce(
    (n, t) => n + t.dimensions.reduce((a: number, b) => a * Number(b), 1),
    0,
  );
  assert.equal(theirParams, info.parameterCount);
  assert.equal(theirs.tensorInfoSize !== undefined, true);
});

test("a download cut short (header whole, tensor data missing) is truncated, with what to do", async () => {
  const file = path.join(dir, "cut.gguf");
  const bytes = await writeGguf(file, llamaSpec());
  await truncate(file, bytes.length - 100);
  await rejectsWith(file, /truncated: \d+ of \d+ bytes .* — delete it and download it again/);
});

test("a file cut inside its header is truncated", async () => {
  const file = path.join(dir, "head.gguf");
  await writeGguf(file, llamaSpec());
  await truncate(file, 60);
  await rejectsWith(file, /ends inside its header .* download it again/);
});

test("a file that is not GGUF, an empty file, a folder, a missing file", async () => {
  const text = path.join(dir, "notes.gguf");
  await writeFile(text, "<!DOCTYPE html><html>Sign in to download</html>");
  await rejectsWith(text, /not a GGUF file .* models must be GGUF files/);
  const empty = path.join(dir, "empty.gguf");
  await writeFile(empty, "");
  await rejectsWith(empty, /not a GGUF file/);
  const folder = path.join(dir, "folder.gguf");
  await mkdir(folder);
  await rejectsWith(folder, /a folder/);
  await rejectsWith(path.join(dir, "missing.gguf"), /no such file/);
});

test("unsupported: version 1, a newer version, an unknown architecture, a projector, a split part, an unknown tensor type", async () => {
  const cases: [string, Buffer, RegExp][] = [
    ["v1.gguf", ggufBytes({ ...llamaSpec(), version: 1 }), /version 1 is too old/],
    ["v9.gguf", ggufBytes({ ...llamaSpec(), version: 9 }), /version 9 is newer/],
    [
      "arch.gguf",
      ggufBytes(llamaSpec({ "general.architecture": { str: "marsnet" } })),
      /architecture "marsnet" is not supported .* choose another model/,
    ],
    [
      "mmproj.gguf",
      ggufBytes(llamaSpec({ "general.architecture": { str: "clip" } })),
      /vision projector .* not a chat model/,
    ],
    [
      "split-00001-of-00003.gguf",
      ggufBytes(llamaSpec({ "split.count": { u32: 3 }, "split.no": { u32: 0 } })),
      /part 1 of a model split into 3 files .* single-file/,
    ],
    [
      "newtype.gguf",
      ggufBytes({ ...llamaSpec(), tensors: [{ name: "x.weight", dims: [32], type: 200 }] }),
      /tensor x\.weight uses type 200/,
    ],
    [
      "noarch.gguf",
      ggufBytes({ metadata: { "general.name": { str: "x" } }, tensors: [] }),
      /without general\.architecture/,
    ],
  ];
  for (const [name, bytes, pattern] of cases) {
    const file = path.join(dir, name);
    await writeFile(file, bytes);
    await rejectsWith(file, pattern);
  }
});

test("damaged bytes anywhere in the header: a ModelFileError or a reading, never a crash", async () => {
  const good = ggufBytes(llamaSpec());
  const file = path.join(dir, "fuzz.gguf");
  let seed = 7;
  const rand = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff), seed);
  for (let i = 0; i < 300; i++) {
    const bytes = Buffer.from(good);
    for (let k = 0; k < 1 + (rand() % 4); k++) bytes[8 + (rand() % 600)] = rand() & 0xff;
    await writeFile(file, bytes);
    try {
      await readGgufInfo(file);
    } catch (err) {
      assert.ok(err instanceof ModelFileError, `case ${i}: ${String(err)}`);
      assert.ok(!err.message.includes("\n"));
    }
  }
});

test("the runtime's tiny model (a file node-llama-cpp loads) reads as a chat model; one byte short, as truncated", async () => {
  const file = path.join(dir, "tiny.gguf");
  const tiny = await writeTinyGguf(file, { contextLength: 2048 });
  const info = await readGgufInfo(file);
  assert.equal(info.architecture, "llama");
  assert.equal(info.contextLength, 2048);
  assert.equal(info.blockCount, 2);
  assert.equal(info.hasChatTemplate, true);
  assert.equal(info.fileSize, tiny.bytes);
  const theirs = await readGgufFileInfo(file, { readTensorInfo: true });
  const params = (theirs.tensorInfo ?? []).reduce(
    (n, t) => n + t.dimensions.reduce((a: number, b) => a * Number(b), 1),
    0,
  );
  assert.equal(info.parameterCount, params);
  await truncate(file, tiny.bytes - 1);
  await rejectsWith(file, /truncated/);
});

test("thinking: a `<think>` token in the vocabulary or the template, as node-llama-cpp's reader sees it", async () => {
  const plain = path.join(dir, "plain.gguf");
  await writeGguf(plain, llamaSpec());
  assert.equal((await readGgufInfo(plain)).thinking, false);
  const vocab = path.join(dir, "vocab-thinks.gguf");
  await writeGguf(
    vocab,
    llamaSpec({ "tokenizer.ggml.tokens": { strs: ["<s>", "<thinks>", "<think>", "a"] } }),
  );
  assert.equal((await readGgufInfo(vocab)).thinking, true);
  const template = path.join(dir, "template-thinks.gguf");
  await writeGguf(
    template,
    llamaSpec({ "tokenizer.chat_template": { str: "{{ '<think>' }}{{ messages }}" } }),
  );
  assert.equal((await readGgufInfo(template)).thinking, true);

  // The runtime's test models all carry <think> in their vocabulary.
  const tiny = path.join(dir, "tiny-thinks.gguf");
  await writeTinyGguf(tiny, {});
  const theirs = await readGgufFileInfo(tiny);
  assert.ok(theirs.metadata.tokenizer.ggml.tokens.includes("<think>"));
  assert.equal((await readGgufInfo(tiny)).thinking, true);
});
