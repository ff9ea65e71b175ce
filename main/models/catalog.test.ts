import assert from "node:assert/strict";
import { test } from "node:test";
import { ModelFileError } from "./errors.ts";
import { loadCatalog, parseCatalog, recommendedModel, type CatalogModel } from "./catalog.ts";

const entry = {
  name: "tiny",
  title: "Tiny",
  description: "A test model.",
  url: "https://example.org/tiny.gguf",
  size: 1000,
  sha256: "a".repeat(64),
  quantization: "Q4_K_M",
  parameters: "0.5B",
  memory_gb: 1.1,
  license: "MIT",
};

function yaml(models: unknown[]): string {
  return JSON.stringify({ models });
}

test("the shipped catalog loads, every entry complete and names unique", async () => {
  const catalog = await loadCatalog();
  assert.ok(catalog.length >= 3);
  for (const m of catalog) {
    assert.match(m.url, /^https:\/\/huggingface\.co\/[^/]+\/[^/]+\/resolve\/main\/[^/]+\.gguf$/);
    assert.match(m.sha256, /^[0-9a-f]{64}$/);
    assert.ok(m.memoryNeeded > m.size, `${m.name}: memory covers at least the weights`);
  }
});

test("a wrong entry is one line naming the file, the entry and the field", () => {
  const cases: [unknown[], RegExp][] = [
    [
      [{ ...entry, sha256: "abc" }],
      /^cat\.yaml: models\[0\] \(tiny\)\.sha256: expected 64 lowercase hex digits$/,
    ],
    [[entry, { ...entry, size: undefined }], /^cat\.yaml: models\[1\] \(tiny\)\.size: required$/],
    [
      [{ ...entry, url: "http://x.org/a.gguf" }],
      /models\[0\] \(tiny\)\.url: expected an https URL/,
    ],
    [[{ ...entry, url: "http://127.0.0.1.evil.org/a.gguf" }], /\.url: expected an https URL/],
    [[{ ...entry, name: "../evil" }], /models\[0\] \(\.\.\/evil\)\.name: expected letters/],
    [[{ ...entry, extra: 1 }], /models\[0\] \(tiny\)\.extra: unknown field/],
    [[entry, entry], /models\[1\] \(tiny\)\.name: "tiny" appears twice/],
  ];
  for (const [models, pattern] of cases) {
    assert.throws(
      () => parseCatalog(yaml(models), "cat.yaml"),
      (err: unknown) => {
        assert.ok(err instanceof ModelFileError);
        assert.match(err.message, pattern);
        return true;
      },
    );
  }
  assert.throws(
    () => parseCatalog("models: [\n", "cat.yaml"),
    /ModelFileError: cat\.yaml:\d+:\d+: invalid YAML/,
  );
  assert.throws(
    () => parseCatalog("{}", "cat.yaml"),
    /ModelFileError: cat\.yaml: models: required$/,
  );
});

test("the recommendation is the largest model that fits comfortably, else the smallest", () => {
  const m = (name: string, gb: number): CatalogModel => ({
    ...parseCatalog(yaml([{ ...entry, name, memory_gb: gb }]), "c")[0],
  });
  const catalog = [m("small", 1), m("medium", 3), m("large", 5)];
  assert.equal(recommendedModel(catalog, 24e9)?.name, "large");
  assert.equal(recommendedModel(catalog, 9e9)?.name, "large");
  assert.equal(recommendedModel(catalog, 6e9)?.name, "medium");
  assert.equal(recommendedModel(catalog, 1e9)?.name, "small");
});
