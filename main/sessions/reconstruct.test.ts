import assert from "node:assert/strict";
import { test } from "node:test";
import { reconstruct } from "./reconstruct.ts";
import { encodeRecord, type SessionRecord } from "./records.ts";
import { msg, stats } from "./testing.ts";
import { formatProblem } from "../host/problem.ts";

const meta: SessionRecord = {
  t: "meta",
  v: 1,
  id: "s1",
  title: "",
  createdAt: "2026-11-21T10:00:00.000Z",
  workdir: "/w",
  agent: "coder",
  provider: "ollama",
  model: "qwen3",
  appVersion: "0.1.0",
};

function file(...records: SessionRecord[]): string {
  return records.map(encodeRecord).join("");
}

const fallback = { id: "s1", createdAt: "2026-01-01T00:00:00.000Z" };

test("remove, reset and in-place updates rebuild the history", () => {
  const text = file(
    meta,
    { t: "message", message: msg("m1", "user", "first question") },
    {
      t: "message",
      message: msg("m2", "user", "hint", { kind: "synthetic", source: "p", eject: true }),
    },
    { t: "message", message: msg("m3", "assistant", "answer") },
    { t: "remove", ids: ["m2", "never-existed"] },
    { t: "message", message: msg("m1", "user", "first question, edited") },
    { t: "reset", messages: [msg("s", "user", "summary of m1..m3", { kind: "summary" })] },
    { t: "message", message: msg("m4", "user", "next") },
  );
  const s = reconstruct(text, "s1.jsonl", fallback);
  assert.deepEqual(s.warnings, []);
  assert.deepEqual(
    s.messages.map((m) => [m.id, m.content]),
    [
      ["s", "summary of m1..m3"],
      ["m4", "next"],
    ],
  );
  // The default title comes from the first user message ever written, even if compacted away.
  assert.equal(s.title, "first question");
});

test("a session begun with a command is named by the command typed, not the prompt it became", () => {
  const text = file(
    meta,
    { t: "event", event: { type: "user_message", text: "/claude-md-management:revise-claude-md" } },
    {
      t: "message",
      message: msg(
        "m1",
        "user",
        "Review this session for learnings about working with Claude Code…",
      ),
    },
    { t: "message", message: msg("m2", "assistant", "Updated CLAUDE.md.") },
  );
  assert.equal(reconstruct(text, "f", fallback).title, "/claude-md-management:revise-claude-md");
  assert.equal(
    reconstruct(text, "f", fallback, { history: true }).title,
    "/claude-md-management:revise-claude-md",
  );
  // Another event that only mentions one is not a command line.
  const notice = file(
    meta,
    { t: "event", event: { type: "notice", source: "p", text: 'saw "user_message" go by' } },
    { t: "message", message: msg("m1", "user", "the real question") },
  );
  assert.equal(reconstruct(notice, "f", fallback).title, "the real question");
});

test("an update keeps the message's position", () => {
  const text = file(
    meta,
    { t: "message", message: msg("a", "user", "1") },
    { t: "message", message: msg("b", "assistant", "2") },
    { t: "message", message: msg("a", "user", "1b") },
  );
  assert.deepEqual(
    reconstruct(text, "f", fallback).messages.map((m) => m.content),
    ["1b", "2"],
  );
});

test("title, todos, agent, model, stats, files, tools and state are last-write-wins", () => {
  const text = file(
    meta,
    { t: "title", title: "Old" },
    { t: "title", title: "New name" },
    { t: "todos", todos: [{ content: "a", status: "pending" }] },
    { t: "todos", todos: [{ content: "a", status: "completed" }] },
    { t: "agent", agent: "planner", reason: "user" },
    { t: "model", provider: "anthropic", model: "claude" },
    { t: "stats", stats, lastApiTokens: 900 },
    { t: "files", seen: { "/w/a.ts": 123 } },
    { t: "tools", loaded: ["WebFetch"] },
    { t: "state", key: "core.thinkMode", value: "high" },
    { t: "state", key: "plugin.x.once", value: ["inj1"] },
    { t: "state", key: "plugin.x.once", value: null },
  );
  const s = reconstruct(text, "f", fallback);
  assert.deepEqual(s.warnings, []);
  assert.equal(s.title, "New name");
  assert.deepEqual(s.todos, [{ content: "a", status: "completed" }]);
  assert.equal(s.agent, "planner");
  assert.equal(s.provider, "anthropic");
  assert.equal(s.model, "claude");
  assert.equal(s.meta.model, "qwen3", "meta keeps what the session started with");
  assert.deepEqual(s.stats, stats);
  assert.equal(s.lastApiTokens, 900);
  assert.deepEqual(s.seenFiles, { "/w/a.ts": 123 });
  assert.deepEqual(s.loadedTools, ["WebFetch"]);
  assert.deepEqual(s.state, { "core.thinkMode": "high" });
});

test("an empty rename falls back to the default title", () => {
  const text = file(
    meta,
    { t: "message", message: msg("a", "user", "hello there") },
    { t: "title", title: "" },
  );
  assert.equal(reconstruct(text, "f", fallback).title, "hello there");
});

test("a torn last line is dropped with a warning; nothing before it is lost", () => {
  const whole = file(meta, { t: "message", message: msg("a", "user", "1") });
  const torn = encodeRecord({ t: "message", message: msg("b", "assistant", "2") }).slice(0, 30);
  const s = reconstruct(whole + torn, "/h/s1.jsonl", fallback);
  assert.deepEqual(
    s.messages.map((m) => m.id),
    ["a"],
  );
  assert.equal(s.warnings.length, 1);
  assert.match(formatProblem(s.warnings[0]), /^\/h\/s1\.jsonl:3: dropped torn last line/);
});

test("a complete last record without its newline is kept", () => {
  const text = file(meta, { t: "message", message: msg("a", "user", "1") }).slice(0, -1);
  const s = reconstruct(text, "f", fallback);
  assert.deepEqual(s.warnings, []);
  assert.equal(s.messages.length, 1);
});

test("bad middle lines are skipped with a warning naming file and line", () => {
  const lines = file(
    meta,
    { t: "message", message: msg("a", "user", "1") },
    { t: "message", message: msg("b", "assistant", "2") },
    { t: "message", message: msg("c", "user", "3") },
  ).split("\n");
  lines[1] = lines[1].slice(0, 20); // corrupt JSON
  lines.splice(
    3,
    0,
    '{"t":"message","message":{"id":"x"}}',
    '{"t":"hologram","x":1}',
    '{"t":"todos","todos":"no"}',
  );
  const s = reconstruct(lines.join("\n"), "/h/s1.jsonl", fallback);
  assert.deepEqual(
    s.messages.map((m) => m.id),
    ["b", "c"],
  );
  assert.equal(s.warnings.length, 4);
  assert.match(formatProblem(s.warnings[0]), /^\/h\/s1\.jsonl:2: skipped line: not valid JSON/);
  assert.match(
    formatProblem(s.warnings[1]),
    /^\/h\/s1\.jsonl:4: skipped line: message\.role is invalid/,
  );
  assert.match(formatProblem(s.warnings[2]), /:5: skipped line: unknown record type "hologram"/);
  assert.match(formatProblem(s.warnings[3]), /:6: skipped line: invalid todos record: todos:/);
});

test("a lost meta line still yields the messages, with placeholder metadata", () => {
  const text = "garbage\n" + file({ t: "message", message: msg("a", "user", "hi") });
  const s = reconstruct(text, "f", fallback);
  assert.equal(s.meta.id, "s1");
  assert.equal(s.meta.createdAt, fallback.createdAt);
  assert.deepEqual(
    s.messages.map((m) => m.id),
    ["a"],
  );
  assert.equal(s.title, "hi");
  assert.equal(s.warnings.length, 2);
  assert.match(formatProblem(s.warnings[1]), /no valid meta record/);
});

test("a file from a newer format loads what it understands and says so", () => {
  const text =
    file({ ...meta, v: 99 } as SessionRecord, { t: "message", message: msg("a", "user", "hi") }) +
    '{"t":"future"}\n';
  const s = reconstruct(text, "f", fallback);
  assert.equal(s.messages.length, 1);
  assert.match(formatProblem(s.warnings[0]), /newer Islet \(format v99\)/);
  assert.match(formatProblem(s.warnings[1]), /unknown record type "future"/);
});

test("an empty file loads as an empty session with a warning", () => {
  const s = reconstruct("", "f", fallback);
  assert.equal(s.messages.length, 0);
  assert.equal(s.warnings.length, 1);
});
