import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { localModels, modelsDir, removeModel } from "./folder.ts";
import { readGgufInfo } from "./gguf-info.ts";
import { memoryFit, memoryNeeded } from "./memory.ts";
import { llamaSpec, writeGguf } from "./testing/gguf-writer.ts";

test("localModels lists the folder's models with their headers; bad files carry their one line; partials are not models", async () => {
  const home = await mkdtemp(path.join(tmpdir(), "islet-models-"));
  try {
    assert.deepEqual(await localModels({ global: home }), [], "no folder yet: no models");
    const dir = modelsDir(home);
    await mkdir(dir, { recursive: true });
    await writeGguf(path.join(dir, "good.gguf"), llamaSpec());
    await writeFile(path.join(dir, "broken.gguf"), "not a model");
    await writeFile(path.join(dir, "coming.gguf.partial"), "GGUF");
    await writeFile(path.join(dir, "readme.txt"), "hi");
    await mkdir(path.join(dir, "dir.gguf"));
    const models = await localModels({ global: home });
    assert.deepEqual(
      models.map((m) => [m.name, m.info?.architecture ?? null, m.error]),
      [
        [
          "broken",
          null,
          "broken.gguf: not a GGUF file (it does not start with GGUF) — models must be GGUF files (.gguf); pull one with `islet models pull`",
        ],
        ["good", "llama", null],
      ],
    );
    assert.equal(models[1].file, path.join(dir, "good.gguf"));
    assert.equal(models[1].size, (await stat(models[1].file)).size);

    await assert.rejects(
      removeModel({ global: home }, "nope"),
      /no model named "nope" .* downloaded: broken, good/,
    );
    await assert.rejects(removeModel({ global: home }, "../good"), /no model named/);
    await removeModel({ global: home }, "good");
    await removeModel({ global: home }, "coming");
    assert.deepEqual(
      (await localModels({ global: home })).map((m) => m.name),
      ["broken"],
    );
    await assert.rejects(stat(path.join(dir, "coming.gguf.partial")));
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test("memory needed: weights + KV cache for the context + runtime; fit against the machine", async () => {
  const home = await mkdtemp(path.join(tmpdir(), "islet-mem-"));
  try {
    const file = path.join(home, "m.gguf");
    await writeGguf(file, llamaSpec());
    const i = await readGgufInfo(file);
    // 2 layers × 2 KV heads × (16 + 16) head dims × 2 bytes = 256 bytes per token.
    assert.equal(memoryNeeded(i, 1000) - memoryNeeded(i, 0), 256_000);
    assert.equal(memoryNeeded(i, 0), i.fileSize + 512 * 1024 * 1024);
    assert.equal(
      memoryNeeded(i),
      memoryNeeded(i, 4096),
      "the model's own context when under 8,192",
    );
    assert.equal(memoryFit(4e9, 16e9), "fits");
    assert.equal(memoryFit(12e9, 16e9), "tight");
    assert.equal(memoryFit(15e9, 16e9), "too-big");
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
