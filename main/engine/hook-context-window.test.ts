/**
 * What Claude Code plugins' SessionStart hooks add, against the model's window, through the real
 * engine and real hook commands: in a 4k window three plugins' context is held to a quarter of
 * it (each text an equal part, the short one whole) and the person is told; in a large window it
 * goes whole; one hook's text is never more than Claude Code's 10,000 characters. An agent's or a
 * provider's hook_context_budget changes the share.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { startConfiguredEngine, startPluginHarness } from "./testing.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import type { AgentEvent } from "../core/events.ts";
import { HOOK_CONTEXT_SHARE } from "../turn/hook-context.ts";

const fmt = (n: number) => n.toLocaleString("en-US");

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** Numbered lines of ~60 characters: `n` of them, each saying whose it is. */
const text = (who: string, n: number) =>
  Array.from(
    { length: n },
    (_, i) => `${who} line ${i}: ${"remember this, ".repeat(3)}and so on`,
  ).join("\n");

/** A Claude Code plugin whose SessionStart hook prints its context.md. */
function plugin(name: string, context: string): Record<string, string> {
  return {
    [`plugins/${name}/.claude-plugin/plugin.json`]: json({ name }),
    [`plugins/${name}/hooks/hooks.json`]: json({
      hooks: {
        SessionStart: [
          { hooks: [{ type: "command", command: 'cat "${CLAUDE_PLUGIN_ROOT}/context.md"' }] },
        ],
      },
    }),
    [`plugins/${name}/context.md`]: context,
  };
}

const contexts = { alpha: text("alpha", 50), beta: text("beta", 55), gamma: text("gamma", 6) };

async function firstRequest(
  window: number,
  homeFiles: Record<string, string>,
  agent?: { name: string; text: string },
) {
  const h = await startPluginHarness({
    plugins: {},
    homeFiles,
    ...(agent ? { agents: { [agent.name]: agent.text }, agent: agent.name } : {}),
    server: { models: [{ id: "m", object: "model", max_model_len: window }] },
    script: [{ text: ["Hello."] }],
  });
  try {
    await h.conversation.submit("Hi");
    const sent = h.sent(0).filter((m) => m.role === "user");
    return {
      context: sent.slice(0, -1).map((m) => m.content),
      prompt: sent.at(-1)?.content,
      notices: h.of("notice").map((n) => n.text),
      injected: h.of("injected").map((e) => [e.source, e.text.length]),
    };
  } finally {
    await h.close();
  }
}

const files = {
  ...plugin("alpha", contexts.alpha),
  ...plugin("beta", contexts.beta),
  ...plugin("gamma", contexts.gamma),
};

test("in a 4k window, SessionStart's context takes at most its share, and the person is told", async () => {
  const r = await firstRequest(4096, files);
  assert.equal(r.prompt, "Hi");
  assert.equal(r.context.length, 3);
  const total = r.context.reduce((n, c) => n + c.length, 0);
  assert.ok(total <= ((4096 * HOOK_CONTEXT_SHARE) / 100) * 4, `${total} characters`);
  const [alpha, beta, gamma] = r.context;
  assert.equal(gamma, contexts.gamma, "the short one whole");
  for (const [cut, whole] of [
    [alpha, contexts.alpha],
    [beta, contexts.beta],
  ]) {
    const [head] = cut.split("\n[… ");
    assert.ok(whole.startsWith(head) && head.length > 1000, head.length.toString());
    assert.match(
      cut,
      /\n\[… \d+ more characters of this text were cut to fit the model's context window\]$/,
    );
  }
  assert.deepEqual(
    r.injected.map(([source, length]) => [source, length]),
    [
      ["alpha:SessionStart", alpha.length],
      ["beta:SessionStart", beta.length],
      ["gamma:SessionStart", gamma.length],
    ],
    "the timeline shows what was sent",
  );
  const notice = r.notices.find((n) => n.startsWith("hook context cut"));
  assert.equal(
    notice,
    `hook context cut to fit the 4,096-token window: alpha:SessionStart ${fmt(contexts.alpha.length)} → ${fmt(alpha.length)}, beta:SessionStart ${fmt(contexts.beta.length)} → ${fmt(beta.length)} characters (what hooks add at once may take at most 25% of the window: hook_context_budget in providers.yaml or the agent)`,
  );
});

test("in a large window it goes whole, but one hook's text stops at 10,000 characters", async () => {
  const long = text("long", 400);
  assert.ok(long.length > 20_000);
  const r = await firstRequest(200_000, { ...files, ...plugin("long", long) });
  assert.deepEqual(r.context.slice(0, 3), [contexts.alpha, contexts.beta, contexts.gamma]);
  const capped = r.context[3];
  assert.ok(capped.length <= 10_000 && capped.length > 9_000, capped.length.toString());
  assert.ok(long.startsWith(capped.split("\n[… ")[0]));
  assert.match(capped, /more characters of this text were cut \(hook output is capped\)\]$/);
  assert.equal(
    r.notices.find((n) => n.startsWith("hook context cut")),
    undefined,
    "nothing said where the window holds it all",
  );
});

test("an agent's hook_context_budget gives hooks more of the window", async () => {
  const r = await firstRequest(4096, files, {
    name: "roomy",
    text: "---\nname: roomy\nhook_context_budget: 60\n---\nYou help.\n",
  });
  assert.deepEqual(r.context, [contexts.alpha, contexts.beta, contexts.gamma]);
  assert.equal(
    r.notices.find((n) => n.startsWith("hook context cut")),
    undefined,
  );
});

test("a provider's hook_context_budget in providers.yaml applies to its agents", async () => {
  const model = await startFakeOpenAI([{ text: ["Hello."] }], {
    models: [{ id: "m", object: "model", max_model_len: 4096 }],
  });
  const { engine, close } = await startConfiguredEngine(
    "islet-hook-budget-provider-",
    {
      "work/a.txt": "a\n",
      "home/config/providers.yaml":
        `default: { provider: small, model: m }\nproviders:\n  small: { type: openai-compatible, ` +
        `base_url: "${model.url}", hook_context_budget: 60 }\n`,
      ...Object.fromEntries(Object.entries(files).map(([rel, t]) => [`home/${rel}`, t])),
    },
    model,
  );
  const notices: string[] = [];
  try {
    const c = await engine.open({
      emit: (e: AgentEvent) => void (e.type === "notice" && notices.push(e.text)),
    });
    await c.submit("Hi");
    await c.close();
    const sent = (
      model.chatRequests[0]?.body as { messages: { role: string; content: string }[] }
    ).messages.filter((m) => m.role === "user");
    assert.deepEqual(
      sent.slice(0, -1).map((m) => m.content),
      [contexts.alpha, contexts.beta, contexts.gamma],
    );
    assert.equal(
      notices.find((n) => n.startsWith("hook context cut")),
      undefined,
    );
  } finally {
    await close();
  }
});
