/**
 * `models/*` and `agents/*` on a real engine against a loopback fake Ollama: the picker lists the
 * configured provider's models, a switch changes the model the next request names, the default
 * is saved in providers.yaml with its comments, and an agent switch fires onAgentSwitch hooks.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { handler, registryOf } from "../../turn/hooks/testing.ts";
import type { ChatOpened } from "../contract.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";
import { sendIn, startSettingsHarness, type SettingsHarness } from "./testing-host.ts";

const REVIEWER = "---\ndescription: Reviews changes\n---\nYou review code.\n";

describe("bridge: models and agents", () => {
  let h: SettingsHarness;
  let c: RecordingClient;

  before(async () => {
    h = await startSettingsHarness([], { "home/config/agents/reviewer.md": REVIEWER });
    c = recordingClient(h.host.service);
  });

  after(async () => {
    c.close();
    await h.close();
  });

  const lastModel = () =>
    (h.model.chatRequests.at(-1)?.body as { model?: string } | undefined)?.model;

  it("lists the configured provider's models and the current default", async () => {
    const listed = await c.call("models/list", {});
    assert.deepEqual(listed, {
      servers: [
        {
          provider: "local",
          label: "local",
          kind: "ollama",
          baseUrl: h.model.url,
          source: "configured",
          models: ["small:1b", "big:70b"],
          error: null,
        },
      ],
      current: { provider: "local", model: "small:1b" },
      currentError: null,
    });
  });

  it("switches an open conversation's model: the next request names it", async () => {
    h.model.push({ text: ["one"] }, { text: ["two"] });
    const { conversationId } = (await c.call("chat/open", {})) as ChatOpened;
    await sendIn(c, conversationId, "first");
    assert.equal(lastModel(), "small:1b");
    const chosen = await c.call("models/select", {
      conversationId,
      provider: "local",
      model: "big:70b",
    });
    assert.deepEqual(chosen, {
      current: { provider: "local", model: "big:70b" },
      scope: "conversation",
    });
    const saved = (await h.host.engine.store.list()).find((s) => s.id === conversationId);
    assert.equal(saved?.model, "big:70b", "the sessions list shows the chosen model");
    const listed = (await c.call("models/list", { conversationId })) as { current: unknown };
    assert.deepEqual(listed.current, { provider: "local", model: "big:70b" });
    await sendIn(c, conversationId, "second");
    assert.equal(lastModel(), "big:70b");
    // Another window that did not open it cannot change it.
    const other = recordingClient(h.host.service);
    await assert.rejects(
      other.call("models/select", { conversationId, provider: "local", model: "small:1b" }),
      /not open in this window/,
    );
    other.close();
  });

  it("a session reopened after a restart continues with the model picked for it", async () => {
    h.model.push({ text: ["before"] }, { text: ["after"] });
    const { conversationId } = (await c.call("chat/open", {})) as ChatOpened;
    await c.call("models/select", { conversationId, provider: "local", model: "big:70b" });
    await sendIn(c, conversationId, "before the restart");
    await h.restart();
    c.close();
    c = recordingClient(h.host.service);
    const reopened = (await c.call("chat/open", { sessionId: conversationId })) as ChatOpened;
    assert.equal(reopened.resumed, true);
    const listed = (await c.call("models/list", { conversationId })) as { current: unknown };
    assert.deepEqual(listed.current, { provider: "local", model: "big:70b" });
    await sendIn(c, conversationId, "after the restart");
    assert.equal(lastModel(), "big:70b");
  });

  it("sets the default for new conversations in providers.yaml, keeping its comments", async () => {
    const changed = c.next("settings/changed");
    await c.call("models/select", { provider: "local", model: "big:70b" });
    assert.deepEqual(await changed, { section: "models" });
    const yaml = readFileSync(h.dirs.path("home/config/providers.yaml"), "utf8");
    assert.match(yaml, /this comment must survive/);
    assert.match(yaml, /# the one on this machine/);
    assert.match(yaml, /default: \{ provider: local, model: big:70b \}/);
    h.model.push({ text: ["three"] });
    const { conversationId } = (await c.call("chat/open", {})) as ChatOpened;
    await sendIn(c, conversationId, "third");
    assert.equal(lastModel(), "big:70b");
    await assert.rejects(c.call("models/select", { provider: "nowhere", model: "x" }), /nowhere/);
  });

  it("lists agents and switches one as /agent does: onAgentSwitch fires, the next turn uses its prompt", async () => {
    const seen: string[] = [];
    h.host.engine.extensions.registrar().hooks(
      registryOf(
        handler("watch", "onAgentSwitch", (ctx) => {
          seen.push(`${ctx.previousAgent}>${ctx.newAgent}:${ctx.reason}`);
          return undefined;
        }),
      ),
      0,
    );
    const { conversationId } = (await c.call("chat/open", {})) as ChatOpened;
    const listed = (await c.call("agents/list", { conversationId })) as {
      agents: { name: string; description: string }[];
      current: string;
    };
    assert.deepEqual(
      listed.agents.map((a) => [a.name, a.description]),
      [
        ["default", "General coding and research assistant with every tool."],
        ["reviewer", "Reviews changes"],
      ],
    );
    assert.equal(listed.current, "default");
    assert.deepEqual(await c.call("agents/select", { conversationId, agent: "reviewer" }), {
      agent: "reviewer",
      scope: "conversation",
    });
    assert.deepEqual(seen, ["default>reviewer:user"]);
    h.model.push({ text: ["reviewed"] });
    await sendIn(c, conversationId, "look");
    const system = (h.model.chatRequests.at(-1)?.body as { messages: { content: string }[] })
      .messages[0].content;
    assert.match(system, /You review code\./);
    await assert.rejects(
      c.call("agents/select", { conversationId, agent: "ghost" }),
      /unknown agent "ghost"; known agents: default, reviewer/,
    );
  });

  it("without a conversation, picks the agent new chats start with (kept in settings.json)", async () => {
    await c.call("agents/select", { agent: "reviewer" });
    const opened = (await c.call("chat/open", {})) as ChatOpened;
    assert.equal(opened.agent, "reviewer");
    const file = JSON.parse(readFileSync(h.dirs.path("home/settings.json"), "utf8")) as {
      defaultAgent: string;
    };
    assert.equal(file.defaultAgent, "reviewer");
    assert.equal(((await c.call("agents/list", {})) as { current: string }).current, "reviewer");
  });
});
