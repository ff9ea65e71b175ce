import { test } from "node:test";
import assert from "node:assert/strict";
import { pluginPermissionsSchema } from "./permissions.ts";

test("accepts every kind of permission with reasons", () => {
  const parsed = pluginPermissionsSchema.parse({
    network: [
      { host: "api.example.com", reason: "weather lookups" },
      { host: "*.example.org", reason: "mirrors" },
      { host: "*", reason: "any feed the user adds" },
      { host: "127.0.0.1:8080", reason: "local service" },
    ],
    paths: [
      { path: "~/.config/tool", reason: "reads its config" },
      { path: "/tmp/out", reason: "writes reports", write: true },
    ],
    exec: { reason: "runs git" },
    wasm: { reason: "image decoding in WebAssembly" },
    env: [{ name: "GITHUB_TOKEN", reason: "API calls" }],
  });
  assert.equal(parsed.paths?.[1]?.write, true);
  assert.equal(parsed.wasm?.reason, "image decoding in WebAssembly");
});

test("rejects missing reasons, schemes in hosts and unknown keys", () => {
  assert.equal(pluginPermissionsSchema.safeParse({ exec: {} }).success, false);
  assert.equal(pluginPermissionsSchema.safeParse({ exec: { reason: "  " } }).success, false);
  assert.equal(pluginPermissionsSchema.safeParse({ wasm: true }).success, false);
  assert.equal(pluginPermissionsSchema.safeParse({ wasm: {} }).success, false);
  const scheme = pluginPermissionsSchema.safeParse({
    network: [{ host: "https://x.com", reason: "r" }],
  });
  assert.equal(scheme.success, false);
  assert.match(String(scheme.error?.issues[0]?.message), /no scheme or path/);
  assert.equal(pluginPermissionsSchema.safeParse({ netwrok: [] }).success, false);
});
