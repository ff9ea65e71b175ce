import assert from "node:assert/strict";
import { test } from "node:test";
import {
  exportJson,
  exportMarkdown,
  fenced,
  toSessionExport,
  type SessionExport,
} from "./export.ts";
import { msg, stats, storeWithSession } from "./testing.ts";
import type { SessionStore } from "./store.ts";

async function sampleSession(store: SessionStore, id: string) {
  store.append(id, [
    { t: "message", message: msg("u1", "user", "Fix the failing test") },
    {
      t: "message",
      message: msg("a1", "assistant", "Let me look.", {
        thinking: "The test probably imports the wrong path.",
        toolCalls: [{ id: "call_1", name: "Read", arguments: { path: "src/a.ts", limit: 20 } }],
      }),
    },
    {
      t: "message",
      message: msg("t1", "tool", "export const a = 1;", { toolCallId: "call_1", toolName: "Read" }),
    },
    {
      t: "message",
      message: msg("t2", "tool", "ENOENT: no such file ```", {
        toolCallId: "call_2",
        toolName: "Bash",
        isError: true,
      }),
    },
    {
      t: "message",
      message: msg("s1", "user", "Remember to run the linter.", {
        kind: "synthetic",
        source: "lint-reminder",
      }),
    },
    { t: "message", message: msg("a2", "assistant", "Done: the import is fixed.") },
    {
      t: "todos",
      todos: [
        { content: "fix import", status: "completed" },
        { content: "run lint", status: "pending" },
      ],
    },
    { t: "stats", stats },
  ]);
  return store.load(id);
}

test("Markdown export: title, metadata, roles, tool calls, results, thinking, injections", async (t) => {
  const { store, id } = await storeWithSession(t);
  const md = exportMarkdown(await sampleSession(store, id));

  assert.ok(md.startsWith("# Fix the failing test\n"));
  assert.ok(md.includes(`- **Session:** \`${id}\``));
  assert.ok(md.includes("- **Working directory:** `/work/proj`"));
  assert.ok(md.includes("- **Model:** ollama / qwen3:8b"));
  assert.ok(md.includes("- **Messages:** 6"));
  assert.ok(md.includes("## User\n\nFix the failing test"));
  assert.ok(
    md.includes(
      "## Assistant\n\n<details>\n<summary>Thinking</summary>\n\n```text\nThe test probably imports the wrong path.\n```\n\n</details>\n\nLet me look.",
    ),
  );
  assert.ok(
    md.includes(
      '**Tool call** `Read` (`call_1`):\n\n```json\n{\n  "path": "src/a.ts",\n  "limit": 20\n}\n```',
    ),
  );
  assert.ok(
    md.includes(
      "## Tool result · `Read`\n\nOutput for call `call_1`:\n\n```text\nexport const a = 1;\n```",
    ),
  );
  // The error output contains a fence, so the export uses a longer one.
  assert.ok(
    md.includes(
      "## Tool result · `Bash` · error\n\nError output for call `call_2`:\n\n````text\nENOENT: no such file ```\n````",
    ),
  );
  assert.ok(md.includes("## User · injected by `lint-reminder`\n\nRemember to run the linter."));
  assert.ok(md.includes("## Todos\n\n- [x] fix import\n- [ ] run lint"));
  assert.ok(md.includes("| Tool calls | 3 (1 errors) |"));
  assert.ok(md.includes("| Top tools | Read ×2 |"));
  // Roles appear in conversation order.
  const order = [
    "## User\n",
    "## Assistant\n",
    "## Tool result · `Read`",
    "## Tool result · `Bash`",
    "injected by",
    "Done: the import",
  ];
  const positions = order.map((s) => md.indexOf(s));
  assert.deepEqual(
    [...positions].sort((a, b) => a - b),
    positions,
  );
});

test("Markdown export marks summaries and untitled sessions", async (t) => {
  const { store, id } = await storeWithSession(t);
  store.append(id, {
    t: "reset",
    messages: [msg("s", "user", "Earlier: we set up the repo.", { kind: "summary" })],
  });
  const md = exportMarkdown(await store.load(id));
  assert.ok(md.startsWith("# Untitled session\n"));
  assert.ok(md.includes("## Summary of earlier conversation\n\nEarlier: we set up the repo."));
  assert.ok(!md.includes("## Todos"));
  assert.ok(!md.includes("## Stats"));
});

test("JSON export has the documented stable shape", async (t) => {
  const { store, id } = await storeWithSession(t);
  const session = await sampleSession(store, id);
  const when = new Date("2026-11-21T12:00:00Z");
  const parsed = JSON.parse(exportJson(session, when)) as SessionExport;
  assert.deepEqual(parsed, toSessionExport(session, when));
  assert.equal(parsed.format, "islet-session");
  assert.equal(parsed.version, 1);
  assert.equal(parsed.exportedAt, "2026-11-21T12:00:00.000Z");
  assert.deepEqual(Object.keys(parsed), [
    "format",
    "version",
    "exportedAt",
    "session",
    "messages",
    "todos",
    "stats",
  ]);
  assert.deepEqual(parsed.session, {
    id,
    title: "Fix the failing test",
    createdAt: session.meta.createdAt,
    updatedAt: session.updatedAt,
    workdir: "/work/proj",
    agent: "coder",
    provider: "ollama",
    model: "qwen3:8b",
    appVersion: "0.1.0",
  });
  assert.deepEqual(
    parsed.messages.map((m) => m.id),
    ["u1", "a1", "t1", "t2", "s1", "a2"],
  );
  assert.equal(parsed.messages[1].toolCalls?.[0].arguments.path, "src/a.ts");
  assert.equal(parsed.todos.length, 2);
  assert.deepEqual(parsed.stats, stats);
});

test("an unclosed fence in model output is closed so later sections survive", async (t) => {
  const { store, id } = await storeWithSession(t);
  store.append(id, [
    { t: "message", message: msg("a", "assistant", "Here:\n```ts\nconst x = 1;") },
    { t: "message", message: msg("b", "user", "thanks") },
  ]);
  const md = exportMarkdown(await store.load(id));
  assert.ok(md.includes("```ts\nconst x = 1;\n```\n\n## User\n\nthanks"));
});

test("fences grow past any backtick run in the body", () => {
  assert.equal(fenced("plain"), "```\nplain\n```");
  assert.equal(fenced("a ````` b", "text"), "``````text\na ````` b\n``````");
});
