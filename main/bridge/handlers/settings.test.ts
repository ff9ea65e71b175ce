/**
 * `settings/*` on a real engine and real files in a temporary home: each setting lands where the
 * engine reads it, survives a restart, and an API key typed in is stored sealed, reaches the
 * provider, and never appears in a plain file or in anything sent back.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { startFakeOpenAI, type FakeServer } from "../../providers/testing/index.ts";
import type { ChatOpened } from "../contract.ts";
import type { SettingsView } from "../schemas/settings.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";
import { sendIn, startSettingsHarness, type SettingsHarness } from "./testing-host.ts";

const SECRET = "sk-very-secret-4711";

/** Every file under `dir` whose text contains `needle`. */
function filesContaining(dir: string, needle: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    if (entry.isFile() && readFileSync(file).includes(needle)) out.push(file);
  }
  return out;
}

describe("bridge: settings on real files", () => {
  let h: SettingsHarness;
  let cloud: FakeServer;
  let c: RecordingClient;
  const sent: unknown[] = [];

  const call = async (name: string, payload?: unknown) => {
    const out = await c.call(name, payload);
    sent.push(out);
    return out as SettingsView;
  };

  before(async () => {
    h = await startSettingsHarness();
    cloud = await startFakeOpenAI([], { models: ["cloud-large", "cloud-small"] });
    c = recordingClient(h.host.service);
  });

  after(async () => {
    c.close();
    await cloud.close();
    await h.close();
  });

  it("shows where everything stands", async () => {
    const view = await call("settings/get");
    assert.equal(view.theme, "system");
    assert.deepEqual(view.defaultModel, { provider: "local", model: "small:1b" });
    assert.deepEqual(view.providers, [
      {
        name: "local",
        type: "ollama",
        baseUrl: h.model.url,
        model: null,
        apiKeyEnv: null,
        extensionsBudget: null,
        hookContextBudget: null,
        key: "not needed",
        keySource: null,
        source: "global",
      },
    ]);
    assert.equal(view.keys.available, true);
    const rule = (tool: string) => view.approvals.tools.find((t) => t.tool === tool);
    assert.deepEqual(rule("Read"), { tool: "Read", rule: "allow", defaultRule: "allow" });
    assert.deepEqual(rule("Bash"), { tool: "Bash", rule: "ask", defaultRule: "ask" });
    assert.equal(view.plugins.runtime, "auto");
    assert.equal(view.plugins.unsafe, false);
  });

  it("sets theme, approvals and plugin runtime where the engine reads them", async () => {
    const changed = c.next("settings/changed");
    const view = await call("settings/set", {
      theme: "dark",
      approvals: { Bash: "allow", Write: "deny" },
      pluginRuntime: "quickjs",
      unsafePlugins: true,
    });
    assert.deepEqual(await changed, { section: "appearance" });
    assert.equal(view.theme, "dark");
    assert.equal(view.approvals.tools.find((t) => t.tool === "Bash")?.rule, "allow");
    assert.equal(await h.host.engine.approvals.rule("Write"), "deny");
    assert.equal(view.plugins.runtime, "quickjs");
    assert.equal(view.plugins.unsafe, true);
    assert.equal(view.plugins.active.unsafe, false, "unsafe mode waits for a restart");
    const settings = JSON.parse(readFileSync(h.dirs.path("home/settings.json"), "utf8")) as {
      theme: string;
    };
    assert.equal(settings.theme, "dark");
    assert.match(
      readFileSync(h.dirs.path("home/config/features/plugins.yaml"), "utf8"),
      /runtime: quickjs[\s\S]*unsafe: true|unsafe: true[\s\S]*runtime: quickjs/,
    );
  });

  it("refuses bad values with one line naming the field", async () => {
    await assert.rejects(c.call("settings/set", { theme: "blue" }), (err: Error) => {
      assert.match(err.message, /theme: expected system, light or dark/);
      assert.doesNotMatch(err.message, /\n/);
      return true;
    });
    await assert.rejects(
      c.call("settings/set", { approvals: { Nonesuch: "allow" } }),
      /approvals\.Nonesuch: no such tool/,
    );
    await assert.rejects(
      c.call("settings/saveProvider", { name: "bad name", type: "ollama" }),
      /name: letters, digits/,
    );
    await assert.rejects(
      c.call("settings/saveProvider", { name: "x", type: "openai-compatible", baseUrl: "ftp://x" }),
      /baseUrl: expected an http\(s\) URL/,
    );
  });

  it("adds a provider with a key: sealed in the store, named in providers.yaml, never sent back", async () => {
    const view = await call("settings/saveProvider", {
      name: "cloud",
      type: "openai-compatible",
      baseUrl: cloud.url,
      model: "cloud-large",
      apiKey: SECRET,
    });
    const entry = view.providers.find((p) => p.name === "cloud");
    assert.deepEqual(entry, {
      name: "cloud",
      type: "openai-compatible",
      baseUrl: cloud.url,
      model: "cloud-large",
      apiKeyEnv: "ISLET_KEY_CLOUD",
      extensionsBudget: null,
      hookContextBudget: null,
      key: "set",
      keySource: "stored",
      source: "global",
    });
    const yaml = readFileSync(h.dirs.path("home/config/providers.yaml"), "utf8");
    assert.match(yaml, /this comment must survive/);
    assert.match(yaml, /api_key_env: ISLET_KEY_CLOUD/);
    assert.deepEqual(filesContaining(h.home, SECRET), [], "the key is in no plain file");
    assert.equal(statSync(h.dirs.path("home/secrets.json")).mode & 0o777, 0o600);
    assert.equal(statSync(h.dirs.path("home/secrets.key")).mode & 0o777, 0o600);
  });

  it("sets a provider's extensions and hook context budgets, keeps them when a save leaves them out, clears them with null, refuses 0 and 101", async () => {
    const budgetOf = (v: { providers: { name: string; extensionsBudget: number | null }[] }) =>
      v.providers.find((p) => p.name === "cloud")?.extensionsBudget;
    const base = {
      name: "cloud",
      type: "openai-compatible" as const,
      baseUrl: cloud.url,
      model: "cloud-large",
    };
    assert.equal(
      budgetOf(await call("settings/saveProvider", { ...base, extensionsBudget: 25 })),
      25,
    );
    const yaml = () => readFileSync(h.dirs.path("home/config/providers.yaml"), "utf8");
    assert.match(yaml(), /extensions_budget: 25/);
    assert.match(yaml(), /api_key_env: ISLET_KEY_CLOUD/, "the stored key's name stays");
    assert.equal(budgetOf(await call("settings/saveProvider", base)), 25);
    await assert.rejects(
      call("settings/saveProvider", { ...base, extensionsBudget: 0 }),
      /extensionsBudget: expected a whole percent from 1 to 100/,
    );
    assert.equal(
      budgetOf(await call("settings/saveProvider", { ...base, extensionsBudget: null })),
      null,
    );
    assert.doesNotMatch(yaml(), /extensions_budget/);

    // The hook context budget the same way, beside it.
    const hookBudgetOf = (v: { providers: { name: string; hookContextBudget: number | null }[] }) =>
      v.providers.find((p) => p.name === "cloud")?.hookContextBudget;
    assert.equal(
      hookBudgetOf(await call("settings/saveProvider", { ...base, hookContextBudget: 40 })),
      40,
    );
    assert.match(yaml(), /hook_context_budget: 40/);
    assert.equal(hookBudgetOf(await call("settings/saveProvider", base)), 40);
    await assert.rejects(
      call("settings/saveProvider", { ...base, hookContextBudget: 101 }),
      /hookContextBudget: expected a whole percent from 1 to 100/,
    );
    assert.equal(
      hookBudgetOf(await call("settings/saveProvider", { ...base, hookContextBudget: null })),
      null,
    );
    assert.doesNotMatch(yaml(), /hook_context_budget/);
  });

  it("tests a provider with a real request, and says what failed", async () => {
    const ok = (await c.call("settings/testProvider", { name: "cloud" })) as {
      ok: boolean;
      message: string;
      models: string[];
    };
    sent.push(ok);
    assert.equal(ok.ok, true);
    assert.deepEqual(ok.models, ["cloud-large", "cloud-small"]);
    assert.match(ok.message, /^Connected to .*: 2 models$/);
    const asked = cloud.requests.filter((r) => r.path === "/v1/models").at(-1);
    assert.equal(asked?.headers.authorization, `Bearer ${SECRET}`);
    const down = (await c.call("settings/testProvider", {
      name: "draft",
      type: "openai-compatible",
      baseUrl: "http://127.0.0.1:9/v1",
    })) as { ok: boolean; message: string };
    assert.equal(down.ok, false);
    assert.match(down.message, /127\.0\.0\.1:9/);
  });

  it("the stored key reaches the model on the next conversation", async () => {
    cloud.push({ text: ["from the cloud"] });
    const { conversationId } = (await c.call("chat/open", {})) as ChatOpened;
    await c.call("models/select", { conversationId, provider: "cloud", model: "cloud-large" });
    await sendIn(c, conversationId, "hello");
    assert.equal(cloud.chatRequests.at(-1)?.headers.authorization, `Bearer ${SECRET}`);
  });

  it("everything persists across a restart; the key was never sent to the page", async () => {
    await h.restart();
    c.close();
    c = recordingClient(h.host.service);
    const view = await call("settings/get");
    assert.equal(view.theme, "dark");
    assert.equal(view.approvals.tools.find((t) => t.tool === "Bash")?.rule, "allow");
    assert.equal(view.plugins.runtime, "quickjs");
    assert.equal(view.providers.find((p) => p.name === "cloud")?.key, "set");
    assert.doesNotMatch(JSON.stringify(sent), new RegExp(SECRET));
  });

  it("removes a provider and forgets its stored key", async () => {
    const view = await call("settings/removeProvider", { name: "cloud" });
    assert.deepEqual(
      view.providers.map((p) => p.name),
      ["local"],
    );
    assert.deepEqual(await h.host.engine.models?.secrets?.names(), []);
    await assert.rejects(
      c.call("settings/removeProvider", { name: "cloud" }),
      /providers\.cloud: not in/,
    );
  });
});
