import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { llamaSpec, writeGguf } from "../models/testing/gguf-writer.ts";
import { startFakeOllama, startFakeOpenAI } from "../providers/testing/index.ts";
import { modelsCommand } from "./models-command.ts";
import type { Output } from "./render.ts";

function capture(): Output & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
  };
  return io;
}

test("islet models lists detected local servers and configured providers with their models", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-models-"));
  const ollama = await startFakeOllama([], {
    models: [{ name: "qwen3:8b" }, { name: "llama3.2:3b" }],
  });
  const vllm = await startFakeOpenAI([], { models: ["Qwen/Qwen3-32B"] });
  try {
    await mkdir(path.join(root, "config"), { recursive: true });
    await writeFile(
      path.join(root, "config", "providers.yaml"),
      `providers:\n  gpu-box: { type: openai-compatible, base_url: ${vllm.url} }\n  cloud: { type: anthropic, base_url: ${vllm.origin} }\n`,
    );
    const io = capture();
    const ports = { ollama: ollama.port, lmstudio: 1, llamacpp: 1 };
    const code = await modelsCommand(["--json", "--home", root, "--workdir", root], io, { ports });
    assert.equal(code, 0);
    const { providers } = JSON.parse(io.stdout) as {
      providers: { provider: string; source: string; models: string[]; error?: string }[];
    };
    const by = Object.fromEntries(providers.map((p) => [p.provider, p]));
    assert.deepEqual(by.ollama.models, ["qwen3:8b", "llama3.2:3b"]);
    assert.equal(by.ollama.source, "detected");
    assert.deepEqual(by["gpu-box"].models, ["Qwen/Qwen3-32B"]);
    assert.match(
      by.cloud.error ?? "",
      /ANTHROPIC_API_KEY/,
      "a provider that cannot be used says why",
    );

    const text = capture();
    await modelsCommand(["--home", root, "--workdir", root], text, { ports });
    assert.match(
      text.stdout,
      /^ollama \(ollama, detected\) http:\/\/127\.0\.0\.1:\d+\n {2}qwen3:8b\n/m,
    );
  } finally {
    await ollama.close();
    await vllm.close();
    await rm(root, { recursive: true, force: true });
  }
});

test("a configured `local` provider lists the models of --home's models folder, not ISLET_HOME's", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-models-local-"));
  const decoy = await mkdtemp(path.join(tmpdir(), "islet-models-decoy-"));
  const saved = process.env.ISLET_HOME;
  // Another home in the environment: the listing must still follow --home (as the engine does).
  process.env.ISLET_HOME = decoy;
  try {
    await mkdir(path.join(root, "config"), { recursive: true });
    await mkdir(path.join(root, "models"), { recursive: true });
    await writeFile(
      path.join(root, "config", "providers.yaml"),
      "providers:\n  mine: { type: local }\n",
    );
    await writeGguf(path.join(root, "models", "handmade-7q.gguf"), llamaSpec());
    const io = capture();
    const ports = { ollama: 1, lmstudio: 1, llamacpp: 1 };
    assert.equal(
      await modelsCommand(["--json", "--home", root, "--workdir", root], io, { ports }),
      0,
    );
    const { providers } = JSON.parse(io.stdout) as {
      providers: { provider: string; baseUrl: string; models: string[]; error?: string }[];
    };
    const mine = providers.find((p) => p.provider === "mine");
    assert.deepEqual(mine?.models, ["handmade-7q"], mine?.error);
    assert.equal(mine?.baseUrl, path.join(root, "models"));
  } finally {
    if (saved === undefined) delete process.env.ISLET_HOME;
    else process.env.ISLET_HOME = saved;
    await rm(root, { recursive: true, force: true });
    await rm(decoy, { recursive: true, force: true });
  }
});
