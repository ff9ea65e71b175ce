import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  ConfigError,
  loadProvidersConfig,
  parseProvidersYaml,
  type ProvidersConfig,
} from "./config.ts";
import { resolveProvider } from "./resolve.ts";
import type { DetectedServer } from "./detect.ts";
import { startFakeOllama } from "./testing/fake-ollama.ts";
import { startFakeOpenAI } from "./testing/fake-openai.ts";
import { collect, READ_TOOL, request } from "./testing/collect.ts";

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

test("config: the documented shape parses", () => {
  const c = parseProvidersYaml(
    `default: { provider: local, model: qwen3:8b }
providers:
  local: { type: ollama, base_url: http://127.0.0.1:11434 }
  work:  { type: openai-compatible, base_url: https://api.openai.com/v1, api_key_env: OPENAI_API_KEY, tools: text, context_length: 128000, headers: { X-Title: islet } }
`,
    F,
  );
  assert.deepEqual(c.default, { provider: "local", model: "qwen3:8b", source: F });
  assert.deepEqual(c.providers.local, {
    name: "local",
    type: "ollama",
    baseUrl: "http://127.0.0.1:11434",
    apiKeyEnv: undefined,
    tools: "auto",
    contextLength: undefined,
    headers: undefined,
    model: undefined,
    capabilities: undefined,
    source: F,
  });
  assert.equal(c.providers.work.tools, "text");
  assert.equal(c.providers.work.contextLength, 128000);
  assert.deepEqual(c.providers.work.headers, { "X-Title": "islet" });
  assert.deepEqual(parseProvidersYaml("", F), { providers: {} });
});

test("config: each mistake is one line naming file, field and problem", () => {
  assert.equal(
    parseError("providers:\n  local: { type: olama }\n"),
    `${F}: providers.local.type: expected one of ollama, openai-compatible, anthropic, local, got string "olama"`,
  );
  assert.equal(
    parseError("providers:\n  local: { type: ollama, bse_url: x }\n"),
    `${F}: providers.local.bse_url: unknown field`,
  );
  assert.match(
    parseError("providers:\n  w: { type: anthropic, api_key: sk-123 }\n"),
    /providers\.w\.api_key: keys do not belong in files/,
  );
  assert.equal(
    parseError("providers:\n  w: { type: ollama, base_url: localhost }\n"),
    `${F}: providers.w.base_url: expected an http(s) URL like http://127.0.0.1:11434`,
  );
  assert.equal(
    parseError("providers:\n  w: { type: ollama, context_length: -5 }\n"),
    `${F}: providers.w.context_length: must be a positive integer`,
  );
  assert.equal(
    parseError("providers:\n  w: { type: ollama, context_length: lots }\n"),
    `${F}: providers.w.context_length: expected number, got string "lots"`,
  );
  assert.equal(
    parseError("providers:\n  w: { base_url: http://a }\n"),
    `${F}: providers.w.type: required (one of ollama, openai-compatible, anthropic, local)`,
  );
  assert.equal(
    parseError("providers: [a, b]\n"),
    `${F}: providers: expected a mapping, got a list`,
  );
  assert.equal(
    parseError("providers:\n  w: { type: openai-compatible }\n"),
    `${F}: providers.w.base_url: required for openai-compatible (e.g. http://127.0.0.1:8080/v1)`,
  );
  assert.match(
    parseError("providers:\n  a: { type: ollama\n"),
    /^\/x\/\.islet\/config\/providers\.yaml:\d+:\d+: invalid YAML: /,
  );
  assert.equal(parseError("default: { model: x }\n"), `${F}: default.provider: required`);
});

test("config: project entries replace global ones by name; project default wins", async () => {
  const root = await mkdtemp(join(tmpdir(), "islet-providers-"));
  try {
    const global = join(root, "global");
    const project = join(root, "project");
    await mkdir(join(global, "config"), { recursive: true });
    await mkdir(join(project, "config"), { recursive: true });
    await writeFile(
      join(global, "config", "providers.yaml"),
      "default: { provider: a, model: g }\nproviders:\n  a: { type: ollama, context_length: 1000 }\n  b: { type: anthropic }\n",
    );
    await writeFile(
      join(project, "config", "providers.yaml"),
      "default: { provider: b }\nproviders:\n  a: { type: ollama, base_url: http://10.0.0.2:11434 }\n",
    );
    const c = await loadProvidersConfig({ global, project });
    assert.equal(c.default?.provider, "b");
    assert.equal(c.providers.a.baseUrl, "http://10.0.0.2:11434");
    assert.equal(c.providers.a.contextLength, undefined, "whole entry replaced");
    assert.equal(c.providers.b.type, "anthropic");
    assert.deepEqual(await loadProvidersConfig({ global: join(root, "none") }), { providers: {} });
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

const none: DetectedServer[] = [];

test("resolve: no config, Ollama detected: its first model, native tools when it has them", async () => {
  const srv = await startFakeOllama([], {
    models: [
      { name: "qwen3:8b", capabilities: ["completion", "tools"] },
      { name: "gemma:2b", capabilities: ["completion"] },
    ],
  });
  try {
    const detected: DetectedServer[] = [
      {
        id: "ollama",
        kind: "ollama",
        baseUrl: srv.url,
        models: [{ name: "qwen3:8b" }, { name: "gemma:2b" }],
      },
    ];
    const r = await resolveProvider({ configs: { providers: {} }, detected });
    assert.deepEqual(
      [r.provider.name, r.provider.kind, r.model, r.toolMode],
      ["ollama", "ollama", "qwen3:8b", "native"],
    );
    assert.deepEqual(r.modelInfo?.capabilities, ["completion", "tools"]);
    const small = await resolveProvider({
      configs: { providers: {} },
      detected,
      flags: { model: "gemma:2b" },
    });
    assert.equal(small.toolMode, "text", "auto: no tools capability → text protocol");
  } finally {
    await srv.close();
  }
});

test("resolve: --provider openai-compatible --base-url --model with no config works end to end", async () => {
  const srv = await startFakeOpenAI([{ toolCalls: [{ name: "Read", arguments: { path: "a" } }] }]);
  try {
    const r = await resolveProvider({
      configs: { providers: {} },
      flags: { provider: "openai-compatible", baseUrl: srv.url, model: "m" },
      env: { OPENAI_API_KEY: "sk-should-not-be-sent-locally" },
      detected: none,
    });
    assert.deepEqual([r.provider.kind, r.model, r.toolMode], ["openai-compatible", "m", "native"]);
    const events = await collect(r.provider.chat(request(r.model, { tools: [READ_TOOL] })));
    assert.equal(events.filter((e) => e.type === "tool_call").length, 1);
    assert.equal(
      srv.chatRequests[0].headers.authorization,
      undefined,
      "no OpenAI key to a local server",
    );
  } finally {
    await srv.close();
  }
});

test("resolve: flags win over config; env supplies keys; tools: text wraps", async () => {
  const configs: ProvidersConfig = parseProvidersYaml(
    `default: { provider: work, model: gpt-cfg }
providers:
  work: { type: openai-compatible, base_url: https://api.example.com/v1, api_key_env: WORK_KEY, tools: text }
  claude: { type: anthropic }
  local: { type: ollama, model: llama3 }
`,
    F,
  );
  const env = { WORK_KEY: "wk-secret", ANTHROPIC_API_KEY: "sk-ant-x" };
  const def = await resolveProvider({ configs, env, detected: none });
  assert.deepEqual([def.provider.name, def.model, def.toolMode], ["work", "gpt-cfg", "text"]);
  const flagged = await resolveProvider({
    configs,
    env,
    detected: none,
    flags: { provider: "local" },
  });
  assert.deepEqual(
    [flagged.provider.name, flagged.model, flagged.provider.baseUrl],
    ["local", "llama3", "http://127.0.0.1:11434"],
  );
  const overridden = await resolveProvider({
    configs,
    env,
    detected: none,
    flags: { model: "other", baseUrl: "https://proxy.example.com/v1" },
  });
  assert.deepEqual(
    [overridden.model, overridden.provider.baseUrl],
    ["other", "https://proxy.example.com/v1"],
  );
  const claude = await resolveProvider({
    configs,
    env,
    detected: none,
    flags: { provider: "claude", model: "claude-x" },
  });
  assert.deepEqual([claude.provider.kind, claude.toolMode], ["anthropic", "native"]);
});

test("resolve: clear errors for missing keys, unknown providers and nothing at all", async () => {
  const configs = parseProvidersYaml(
    "providers:\n  work: { type: openai-compatible, base_url: https://x.example/v1, api_key_env: WORK_KEY }\n  claude: { type: anthropic }\n",
    F,
  );
  await assert.rejects(
    resolveProvider({ configs, env: {}, detected: none, flags: { provider: "work", model: "m" } }),
    {
      message: `${F}: providers.work.api_key_env: WORK_KEY is not set in the environment (or the env file)`,
    },
  );
  await assert.rejects(
    resolveProvider({
      configs,
      env: {},
      detected: none,
      flags: { provider: "claude", model: "m" },
    }),
    {
      message: "claude: no API key — set ANTHROPIC_API_KEY (or api_key_env in providers.yaml)",
    },
  );
  await assert.rejects(
    resolveProvider({ configs, env: {}, detected: none, flags: { provider: "nope" } }),
    {
      message:
        '--provider: unknown provider "nope" — configured: work, claude; or use one of ollama, openai-compatible, anthropic with --base-url, or local (models in ~/.islet/models)',
    },
  );
  await assert.rejects(
    resolveProvider({ configs, env: {}, detected: none }),
    /several providers are configured \(work, claude\)/,
  );
  await assert.rejects(
    resolveProvider({
      configs: { providers: {} },
      env: {},
      detected: none,
      flags: { provider: "openai-compatible", model: "m" },
    }),
    /openai-compatible needs a base URL/,
  );
  await assert.rejects(resolveProvider({ configs: { providers: {} }, env: {}, detected: none }), {
    name: "ConfigError",
    message:
      /^no model provider configured or running and no model downloaded .*`islet models pull /,
  });
});

test("resolve: detected LM Studio by name; model from its list; auto stays native", async () => {
  const detected: DetectedServer[] = [
    {
      id: "lmstudio",
      kind: "openai-compatible",
      baseUrl: "http://127.0.0.1:1234/v1",
      models: [{ name: "qwen2.5-7b" }],
    },
  ];
  const r = await resolveProvider({
    configs: { providers: {} },
    detected,
    flags: { provider: "lmstudio" },
  });
  assert.deepEqual(
    [r.provider.name, r.provider.baseUrl, r.model, r.toolMode],
    ["lmstudio", "http://127.0.0.1:1234/v1", "qwen2.5-7b", "native"],
  );
});

test("config: extensions_budget and hook_context_budget are percents of the window from 1 to 100", () => {
  const c = parseProvidersYaml(
    "providers:\n  small: { type: ollama, context_length: 8192, extensions_budget: 5, hook_context_budget: 40 }\n",
    F,
  );
  assert.equal(c.providers.small.extensionsBudget, 5);
  assert.equal(c.providers.small.hookContextBudget, 40);
  for (const field of ["extensions_budget", "hook_context_budget"])
    for (const bad of ["0", "101", "-3"])
      assert.equal(
        parseError(`providers:\n  w: { type: ollama, ${field}: ${bad} }\n`),
        `${F}: providers.w.${field}: must be a percent of the window from 1 to 100`,
      );
  assert.equal(
    parseError("providers:\n  w: { type: ollama, extensions_budget: most }\n"),
    `${F}: providers.w.extensions_budget: expected number, got string "most"`,
  );
});
