/** Settings' edits of providers.yaml keep the user's comments and never leave a file the engine refuses. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { removeProviderEntry, saveDefaultModel, saveProviderEntry } from "./config-edit.ts";
import { loadProvidersFile } from "./config.ts";

const ORIGINAL = `# my setup
default: { provider: work, model: gpt-4.1 } # the usual
providers:
  # the office key
  work:
    type: openai-compatible
    base_url: https://api.example.com/v1
    api_key_env: WORK_KEY
    timeouts: { connect: 5 } # slow VPN
`;

test("add, rename, set default and remove, keeping comments and fields Settings does not edit", async () => {
  const dir = tempDir("islet-config-edit-");
  try {
    const file = dir.path("providers.yaml");
    dir.write({ "providers.yaml": ORIGINAL });
    await saveProviderEntry(file, "local", { type: "ollama", base_url: "http://127.0.0.1:11434" });
    await saveProviderEntry(
      file,
      "office",
      {
        type: "openai-compatible",
        base_url: "https://api.example.com/v1",
        api_key_env: "WORK_KEY",
      },
      "work",
    );
    let text = readFileSync(file, "utf8");
    for (const kept of ["# my setup", "# the usual", "# slow VPN"])
      assert.ok(text.includes(kept), kept);
    let config = await loadProvidersFile(file);
    assert.deepEqual(Object.keys(config?.providers ?? {}).sort(), ["local", "office"]);
    assert.equal(config?.providers["office"]?.timeouts?.connect, 5);
    assert.equal(config?.default?.provider, "office", "the default follows a rename");
    await saveDefaultModel(file, "local", "qwen3:8b");
    assert.deepEqual(
      {
        provider: (await loadProvidersFile(file))?.default?.provider,
        model: (await loadProvidersFile(file))?.default?.model,
      },
      { provider: "local", model: "qwen3:8b" },
    );
    assert.equal(await removeProviderEntry(file, "local"), true);
    config = await loadProvidersFile(file);
    assert.equal(config?.default, undefined, "a removed provider is no longer the default");
    assert.equal(await removeProviderEntry(file, "local"), false);
    text = readFileSync(file, "utf8");
    assert.ok(text.includes("# slow VPN"));
  } finally {
    dir.remove();
  }
});

test("an edit the engine would refuse is not written; a broken file is not touched", async () => {
  const dir = tempDir("islet-config-edit-");
  try {
    const file = dir.path("providers.yaml");
    dir.write({ "providers.yaml": ORIGINAL });
    await assert.rejects(
      saveProviderEntry(file, "bad", { type: "openai-compatible" }),
      /providers\.bad\.base_url: required for openai-compatible/,
    );
    assert.equal(readFileSync(file, "utf8"), ORIGINAL);
    dir.write({ "providers.yaml": "providers: [unclosed\n" });
    await assert.rejects(
      saveProviderEntry(file, "x", { type: "ollama" }),
      /invalid YAML .*fix it by hand first/,
    );
    assert.equal(readFileSync(file, "utf8"), "providers: [unclosed\n");
    // No file yet: one is created with a header saying where keys go.
    const fresh = dir.path("new", "providers.yaml");
    await saveProviderEntry(fresh, "local", { type: "ollama" });
    assert.match(readFileSync(fresh, "utf8"), /Keys never go here/);
  } finally {
    dir.remove();
  }
});
