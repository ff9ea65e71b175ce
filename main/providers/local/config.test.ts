import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ConfigError, parseProvidersYaml } from "../config.ts";
import { resolveProvider } from "../resolve.ts";
import { writeTinyGguf } from "./testing/tiny-gguf.ts";
import { LocalProvider } from "./provider.ts";

test("providers.yaml: a local provider with its unload time, threads and GPU switch", () => {
  const c = parseProvidersYaml(
    "providers:\n  embedded: { type: local, model: qwen3-4b, unload_after: 60, threads: 2, gpu: false, tools: text }\n",
    "providers.yaml",
  );
  assert.deepEqual(c.providers.embedded, {
    name: "embedded",
    type: "local",
    baseUrl: undefined,
    apiKeyEnv: undefined,
    tools: "text",
    contextLength: undefined,
    headers: undefined,
    model: "qwen3-4b",
    capabilities: undefined,
    unloadAfter: 60,
    threads: 2,
    gpu: false,
    source: "providers.yaml",
  });
  assert.throws(
    () => parseProvidersYaml("providers:\n  e: { type: local, unload_after: -1 }\n", "p.yaml"),
    (err) =>
      err instanceof ConfigError &&
      /^p\.yaml: providers\.e\.unload_after: expected a number of seconds/.test(err.message),
  );
});

test("--provider local: the models folder's first GGUF, and the text protocol stays inside the provider", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-local-resolve-"));
  try {
    const modelsDir = path.join(root, "models");
    await mkdir(path.join(modelsDir, "qwen"), { recursive: true });
    // A real header: the first-run choice skips files the model manager cannot read.
    await writeTinyGguf(path.join(modelsDir, "qwen", "Qwen3-4B-Q4_K_M.gguf"));
    await writeFile(path.join(modelsDir, "notes.txt"), "");
    const configs = parseProvidersYaml(
      "providers:\n  local: { type: local, tools: text }\n",
      "providers.yaml",
    );
    const r = await resolveProvider({
      configs,
      flags: { provider: "local" },
      modelsDir,
      detected: [],
    });
    assert.ok(r.provider instanceof LocalProvider, "not wrapped by withTextToolProtocol");
    assert.equal(r.provider.kind, "local");
    assert.equal(r.model, "Qwen3-4B-Q4_K_M");
    assert.equal(r.provider.baseUrl, modelsDir);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
