/** Two quick changes from Settings to one file both land (neither reads the other's old file). */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { editGlobalFeatures, readGlobalFeatures } from "../code-plugins/loader/features-edit.ts";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { saveProviderEntry } from "../providers/config-edit.ts";
import { loadProvidersFile } from "../providers/config.ts";

test("concurrent edits of features/plugins.yaml and providers.yaml lose nothing", async () => {
  const dir = tempDir("islet-file-queue-");
  try {
    await Promise.all([
      editGlobalFeatures(dir.root, { runtime: "quickjs" }),
      editGlobalFeatures(dir.root, { unsafe: true }),
    ]);
    const features = await readGlobalFeatures(dir.root);
    assert.deepEqual(
      [features.runtime, features.unsafe],
      ["quickjs", true],
      readFileSync(features.file, "utf8"),
    );
    const file = dir.path("config", "providers.yaml");
    await Promise.all(
      ["a", "b", "c"].map((name) => saveProviderEntry(file, name, { type: "ollama" })),
    );
    assert.deepEqual(Object.keys((await loadProvidersFile(file))?.providers ?? {}).sort(), [
      "a",
      "b",
      "c",
    ]);
  } finally {
    dir.remove();
  }
});
