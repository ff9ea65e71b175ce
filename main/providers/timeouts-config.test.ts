/** providers.yaml `timeouts`: parsed, validated in one line, and applied to the provider. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, parseProvidersYaml } from "./config.ts";
import { resolveProvider } from "./resolve.ts";
import { CLOUD_TIMEOUTS, LOCAL_TIMEOUTS, resolveTimeouts } from "./timeouts.ts";
import { ProviderError } from "./types.ts";
import { startFakeOpenAI } from "./testing/fake-openai.ts";
import { collect, request } from "./testing/collect.ts";

const F = "/x/.islet/config/providers.yaml";

function parseError(yaml: string): string {
  try {
    parseProvidersYaml(yaml, F);
  } catch (err) {
    assert.ok(err instanceof ConfigError);
    assert.doesNotMatch(err.message, /\n/);
    return err.message;
  }
  assert.fail("expected a ConfigError");
}

test("config: timeouts in seconds, any of the three", () => {
  const c = parseProvidersYaml(
    `providers:
  local: { type: ollama, timeouts: { connect: 5, first_token: 600, idle: 90.5 } }
  quick: { type: ollama, timeouts: { idle: 30 } }
  plain: { type: ollama }
`,
    F,
  );
  assert.deepEqual(c.providers.local.timeouts, { connect: 5, firstToken: 600, idle: 90.5 });
  assert.deepEqual(c.providers.quick.timeouts, {
    connect: undefined,
    firstToken: undefined,
    idle: 30,
  });
  assert.equal(c.providers.plain.timeouts, undefined);
});

test("config: a bad timeout is one line naming file and field", () => {
  const expected = "expected a number of seconds above 0 and at most 86400 (e.g. 300)";
  for (const value of ["0", "-1", '"5m"', "100000", "[1]"]) {
    assert.equal(
      parseError(`providers:\n  local: { type: ollama, timeouts: { first_token: ${value} } }\n`),
      `${F}: providers.local.timeouts.first_token: ${expected}`,
    );
  }
  assert.equal(
    parseError("providers:\n  local: { type: ollama, timeouts: { firsttoken: 5 } }\n"),
    `${F}: providers.local.timeouts.firsttoken: unknown field`,
  );
  assert.equal(
    parseError("providers:\n  local: { type: ollama, timeouts: 30 }\n"),
    `${F}: providers.local.timeouts: expected a mapping, got number 30`,
  );
});

test("defaults: local servers get time to load a model, cloud ones less", () => {
  assert.deepEqual(resolveTimeouts("http://127.0.0.1:11434"), LOCAL_TIMEOUTS);
  assert.deepEqual(resolveTimeouts("http://192.168.1.20:8080/v1"), LOCAL_TIMEOUTS);
  assert.deepEqual(resolveTimeouts("https://api.openai.com/v1"), CLOUD_TIMEOUTS);
  assert.ok(LOCAL_TIMEOUTS.firstTokenMs >= 300_000);
  assert.ok(CLOUD_TIMEOUTS.firstTokenMs < LOCAL_TIMEOUTS.firstTokenMs);
  assert.deepEqual(resolveTimeouts("http://127.0.0.1:1", { idleMs: 5000 }), {
    ...LOCAL_TIMEOUTS,
    idleMs: 5000,
  });
});

test(
  "resolve: the configured first_token limit is the one that fires",
  { timeout: 30_000 },
  async () => {
    const srv = await startFakeOpenAI([{ silent: true }]);
    try {
      const configs = parseProvidersYaml(
        `providers:\n  lms: { type: openai-compatible, base_url: ${srv.url}, timeouts: { first_token: 0.5 } }\n`,
        F,
      );
      const { provider } = await resolveProvider({ configs, detected: [], flags: { model: "m" } });
      const t0 = performance.now();
      const err = await collect(provider.chat(request("m"))).then(
        () => assert.fail("expected the call to fail"),
        (e: unknown) => e,
      );
      const ms = performance.now() - t0;
      assert.ok(err instanceof ProviderError, String(err));
      assert.equal(err.timeout, "first_token");
      assert.match(err.message, /after 0\.5 s \(first_token timeout\)/);
      assert.match(err.message, /raise providers\.lms\.timeouts\.first_token in providers\.yaml/);
      assert.ok(ms >= 400 && ms < 15_000, `fired after ${ms} ms`);
    } finally {
      await srv.close();
    }
  },
);
