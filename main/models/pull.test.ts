import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { parseCatalog } from "./catalog.ts";
import { modelsDir } from "./folder.ts";
import { isDownloaded, nameFromUrl, planPull, pullModel } from "./pull.ts";
import { startFileServer } from "./testing/file-server.ts";
import { ggufBytes, llamaSpec } from "./testing/gguf-writer.ts";

const gguf = ggufBytes(llamaSpec());

function catalogFor(url: string, sha256: string, size: number) {
  return parseCatalog(
    JSON.stringify({
      models: [
        {
          name: "tiny",
          title: "Tiny",
          description: "A test model.",
          url: url.replace("http://", "https://"),
          size,
          sha256,
          quantization: "Q4_K_M",
          parameters: "0.5B",
          memory_gb: 1,
          license: "MIT",
        },
      ],
    }),
    "test-catalog.yaml",
  ).map((m) => ({ ...m, url }));
}

test("pull by catalog name: checked download into <home>/models/<name>.gguf, then listed with its header", async () => {
  const home = await mkdtemp(path.join(tmpdir(), "islet-pull-"));
  const server = await startFileServer({ body: gguf });
  try {
    const sha = createHash("sha256").update(gguf).digest("hex");
    const catalog = catalogFor(`${server.url}/model.gguf`, sha, gguf.length);
    const plan = await planPull({ global: home }, "tiny", catalog);
    assert.equal(plan.dest, path.join(modelsDir(home), "tiny.gguf"));
    assert.equal(await isDownloaded(plan), false);
    const model = await pullModel({ global: home }, plan);
    assert.equal(model.name, "tiny");
    assert.equal(model.info?.architecture, "llama");
    assert.equal(await isDownloaded(plan), true);

    const byUrl = await planPull({ global: home }, `${server.url}/model.gguf`, catalog);
    assert.equal(byUrl.name, "tiny", "a catalog URL is the catalog entry, checksum and all");
    assert.equal(byUrl.sha256, sha);
    await assert.rejects(
      planPull({ global: home }, "nope", catalog),
      /no model named "nope" in the catalog — pull one of tiny, or give a URL/,
    );
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
});

test("pull by URL of something that is not a model: one line, and nothing is kept", async () => {
  const home = await mkdtemp(path.join(tmpdir(), "islet-pull-"));
  const server = await startFileServer({ body: Buffer.from("<html>Please log in</html>") });
  try {
    const plan = await planPull({ global: home }, `${server.url}/model.gguf?download=true`, []);
    assert.equal(plan.name, "model");
    assert.equal(plan.sha256, undefined);
    await assert.rejects(
      pullModel({ global: home }, plan),
      /^ModelFileError: model\.gguf: not a GGUF file/,
    );
    assert.deepEqual(await readdir(modelsDir(home)), []);
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
  }
});

test("names from URLs are file-safe", () => {
  assert.equal(
    nameFromUrl(new URL("https://h/r/resolve/main/Qwen3-4B-Q4_K_M.gguf?download=true")),
    "Qwen3-4B-Q4_K_M",
  );
  assert.equal(nameFromUrl(new URL("https://h/a/..%2F..%2Fetc%2Fpasswd")), "etc-passwd");
  assert.equal(nameFromUrl(new URL("https://h/")), "model");
});
