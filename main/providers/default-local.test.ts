// With no provider configured and no local server running, the embedded runtime (provider
// `local`) is the default, with the first model in <home>/models; with none there, the error
// says which model to pull for this machine.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { modelsDir, pullAdvice } from "../models/index.ts";
import { llamaSpec, writeGguf } from "../models/testing/gguf-writer.ts";
import { resolveProvider } from "./resolve.ts";
import type { DetectedServer } from "./detect.ts";

const none: DetectedServer[] = [];

test("nothing configured, nothing running, nothing downloaded: one line naming the model to pull", async () => {
  const home = await mkdtemp(path.join(tmpdir(), "islet-default-"));
  try {
    const advice = await pullAdvice();
    assert.match(advice, /^run `islet models pull [a-z0-9.-]+` \(.+, \d/);
    await assert.rejects(
      resolveProvider({ configs: { providers: {} }, detected: none, modelsDir: modelsDir(home) }),
      {
        name: "ConfigError",
        message: `no model provider configured or running and no model downloaded for the embedded runtime — ${advice}, or start Ollama, LM Studio or llama.cpp server`,
      },
    );
    await assert.rejects(
      resolveProvider({
        configs: { providers: {} },
        detected: none,
        modelsDir: modelsDir(home),
        flags: { provider: "local", model: "qwen3-4b" },
      }),
      { message: /^local: no model "qwen3-4b" in .*models — run `islet models pull qwen3-4b`$/ },
    );
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test("nothing configured, nothing running, a model downloaded: provider local with that model", async () => {
  const home = await mkdtemp(path.join(tmpdir(), "islet-default-"));
  try {
    await mkdir(modelsDir(home), { recursive: true });
    await writeGguf(path.join(modelsDir(home), "tiny.gguf"), llamaSpec());
    const r = await resolveProvider({
      configs: { providers: {} },
      detected: none,
      modelsDir: modelsDir(home),
    });
    assert.equal(r.config.type, "local");
    assert.equal(r.provider.name, "local");
    assert.equal(r.model, "tiny");
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test("a running server still wins over downloaded models; a configured provider wins over both", async () => {
  const home = await mkdtemp(path.join(tmpdir(), "islet-default-"));
  try {
    await mkdir(modelsDir(home), { recursive: true });
    await writeGguf(path.join(modelsDir(home), "tiny.gguf"), llamaSpec());
    const detected: DetectedServer[] = [
      {
        id: "ollama",
        kind: "ollama",
        baseUrl: "http://127.0.0.1:1",
        models: [{ name: "qwen3:8b" }],
      },
    ];
    const r = await resolveProvider({
      configs: { providers: {} },
      detected,
      modelsDir: modelsDir(home),
      flags: {},
    });
    assert.deepEqual([r.provider.name, r.model], ["ollama", "qwen3:8b"]);
    const configured = await resolveProvider({
      configs: {
        providers: {
          work: {
            name: "work",
            type: "openai-compatible",
            baseUrl: "http://127.0.0.1:2/v1",
            tools: "native",
            model: "m",
            source: "p.yaml",
          },
        },
      },
      detected: none,
      modelsDir: modelsDir(home),
    });
    assert.deepEqual([configured.provider.name, configured.model], ["work", "m"]);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
