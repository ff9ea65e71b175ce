import assert from "node:assert/strict";
import { appendFileSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { INDEX_FILE } from "./index-cache.ts";
import { encodeRecord, type BodyRecord } from "./records.ts";
import { SessionError, SessionStore } from "./store.ts";
import { baseSession, msg, stats, storeWithSession, tempDir } from "./testing.ts";
import { formatProblem } from "../host/problem.ts";

test("create, append, flush and load round-trip the whole session state", async (t) => {
  const { store, id } = await storeWithSession(t);
  store.appendMessage(id, msg("a", "user", "  Add a   --json flag to the CLI\n"));
  store.append(id, [
    {
      t: "message",
      message: msg("b", "assistant", "ok", {
        toolCalls: [{ id: "c1", name: "Read", arguments: {} }],
      }),
    },
    { t: "message", message: msg("c", "tool", "file", { toolCallId: "c1", toolName: "Read" }) },
    { t: "todos", todos: [{ content: "write flag", status: "in_progress" }] },
    { t: "stats", stats },
  ]);
  await store.flush(id);
  const s = await store.load(id);
  assert.deepEqual(s.warnings, []);
  assert.equal(s.id, id);
  assert.equal(s.title, "Add a --json flag to the CLI");
  assert.deepEqual(
    s.messages.map((m) => m.id),
    ["a", "b", "c"],
  );
  assert.equal(s.meta.workdir, "/work/proj");
  assert.equal(s.meta.appVersion, "0.1.0");
  assert.equal(s.meta.v, 1);
  assert.deepEqual(s.todos, [{ content: "write flag", status: "in_progress" }]);
  assert.deepEqual(s.stats, stats);
  assert.ok(Date.parse(s.updatedAt) > 0);
});

test("an invalid record is refused before anything is written", async (t) => {
  const { store, id } = await storeWithSession(t);
  const before = readFileSync(store.fileOf(id), "utf8");
  const broken = { ...msg("a", "user", "x"), role: "robot" } as unknown as ReturnType<typeof msg>;
  // Messages, events and stats are checked as they are, the rest after a JSON round trip: a
  // number JSON cannot keep (it would read back as null) is refused either way.
  const refused = [
    { t: "message", message: broken },
    { t: "event", event: { type: 7 } },
    { t: "stats", stats: { ...stats, duration: Number.NaN } },
    { t: "files", seen: { "a.ts": Number.POSITIVE_INFINITY } },
  ] as unknown as BodyRecord[];
  for (const record of refused) {
    assert.throws(
      () => store.append(id, [{ t: "message", message: msg("ok", "user", "x") }, record]),
      (err: unknown) => err instanceof SessionError && err.code === "invalid_record",
      JSON.stringify(record),
    );
  }
  assert.equal(readFileSync(store.fileOf(id), "utf8"), before);
});

test("appending to a file with a torn tail cuts the tail off first", async (t) => {
  const { store, id } = await storeWithSession(t);
  store.appendMessage(id, msg("a", "user", "kept"));
  await store.close(id);
  // A crash in the middle of writing record "b":
  appendFileSync(
    store.fileOf(id),
    encodeRecord({ t: "message", message: msg("b", "assistant", "lost") }).slice(0, 25),
  );

  const torn = await store.load(id);
  assert.deepEqual(
    torn.messages.map((m) => m.id),
    ["a"],
  );
  assert.equal(torn.warnings.length, 1);
  assert.match(
    formatProblem(torn.warnings[0]),
    new RegExp(`${id}\\.jsonl:3: dropped torn last line`),
  );

  const reopened = new SessionStore(store.dir);
  t.after(() => reopened.close());
  reopened.appendMessage(id, msg("c", "assistant", "after the crash"));
  const clean = await reopened.load(id);
  assert.deepEqual(clean.warnings, []);
  assert.deepEqual(
    clean.messages.map((m) => m.id),
    ["a", "c"],
  );
  assert.ok(readFileSync(store.fileOf(id), "utf8").endsWith("}\n"));
});

test("a new session is appended to without a tail check, but once closed it is checked again", async (t) => {
  const { store, id } = await storeWithSession(t);
  store.appendMessage(id, msg("a", "user", "first"));
  assert.deepEqual(
    (await store.load(id)).messages.map((m) => m.id),
    ["a"],
  );
  const other = await store.create({ ...baseSession, id: "20261127-120000-abcdef" });
  await store.close(other);
  appendFileSync(store.fileOf(other), '{"t":"message","mess');
  store.appendMessage(other, msg("b", "user", "after a torn write"));
  const loaded = await store.load(other);
  assert.deepEqual(loaded.warnings, []);
  assert.deepEqual(
    loaded.messages.map((m) => m.id),
    ["b"],
  );
});

test("a new session another process wrote to before this store's first append is tail-checked", async (t) => {
  const { store } = await storeWithSession(t);
  const id = await store.create({ ...baseSession, id: "20261127-120000-fedcba" });
  // Another writer (a killed process) left a torn record after the meta line.
  appendFileSync(store.fileOf(id), '{"t":"message","mess');
  store.appendMessage(id, msg("b", "user", "after a torn write"));
  await store.flush(id);
  const loaded = await store.load(id);
  assert.deepEqual(loaded.warnings, []);
  assert.deepEqual(
    loaded.messages.map((m) => m.id),
    ["b"],
  );
});

test("a complete last record missing its newline is kept when appending", async (t) => {
  const { store, id } = await storeWithSession(t);
  await store.close(id);
  appendFileSync(
    store.fileOf(id),
    encodeRecord({ t: "message", message: msg("a", "user", "x") }).trimEnd(),
  );
  store.appendMessage(id, msg("b", "user", "y"));
  const s = await store.load(id);
  assert.deepEqual(s.warnings, []);
  assert.deepEqual(
    s.messages.map((m) => m.id),
    ["a", "b"],
  );
});

test("a corrupt middle line is skipped and everything around it loads", async (t) => {
  const { store, id } = await storeWithSession(t);
  for (const i of [0, 1, 2]) store.appendMessage(id, msg(`m${i}`, "user", `text ${i}`));
  await store.close(id);
  const lines = readFileSync(store.fileOf(id), "utf8").split("\n");
  lines[2] = '{"t":"message","message":{"id":"m1","ro\u0000garbage';
  writeFileSync(store.fileOf(id), lines.join("\n"));
  const s = await store.load(id);
  assert.deepEqual(
    s.messages.map((m) => m.id),
    ["m0", "m2"],
  );
  assert.deepEqual(s.warnings.map(formatProblem), [
    `${store.fileOf(id)}:3: skipped line: not valid JSON`,
  ]);
});

test("list: newest first, with counts after removals, titles and switches", async (t) => {
  const dir = tempDir(t);
  const store = new SessionStore(dir);
  t.after(() => store.close());
  const older = await store.create({ ...baseSession, createdAt: new Date("2026-11-20T08:00:00Z") });
  const newer = await store.create({ ...baseSession, createdAt: new Date("2026-11-21T08:00:00Z") });
  store.append(older, [
    { t: "message", message: msg("a", "user", "older session question") },
    { t: "message", message: msg("b", "user", "inject", { kind: "synthetic", eject: true }) },
    { t: "remove", ids: ["b"] },
    { t: "agent", agent: "planner" },
    { t: "model", provider: "anthropic", model: "claude" },
  ]);
  store.appendMessage(newer, msg("x", "user", "newer"));
  utimesSync(
    store.fileOf(older),
    new Date("2020-01-02T00:00:00Z"),
    new Date("2020-01-02T00:00:00Z"),
  );
  utimesSync(
    store.fileOf(newer),
    new Date("2020-01-01T00:00:00Z"),
    new Date("2020-01-01T00:00:00Z"),
  );

  const list = await store.list();
  assert.deepEqual(
    list.map((s) => s.id),
    [older, newer],
    "ordered by last update",
  );
  assert.deepEqual(list[0], {
    id: older,
    title: "older session question",
    createdAt: "2026-11-20T08:00:00.000Z",
    updatedAt: "2020-01-02T00:00:00.000Z",
    messageCount: 1,
    workdir: "/work/proj",
    agent: "planner",
    provider: "anthropic",
    model: "claude",
  });

  // The index caches unchanged files; a change to one file is picked up.
  const index = JSON.parse(readFileSync(join(dir, INDEX_FILE), "utf8")) as {
    entries: Record<string, unknown>;
  };
  assert.deepEqual(Object.keys(index.entries).sort(), [older, newer].sort());
  await store.rename(newer, "Renamed");
  const again = await store.list();
  assert.equal(again[0].id, newer);
  assert.equal(again[0].title, "Renamed");

  // A corrupt index is only a cache: it is rebuilt.
  writeFileSync(join(dir, INDEX_FILE), "{not json");
  assert.equal((await store.list()).length, 2);
});

test("list of a missing folder is empty", async (t) => {
  assert.deepEqual(await new SessionStore(join(tempDir(t), "nope")).list(), []);
});

test("resolve: exact id, unique prefix, ambiguous and unknown prefixes", async (t) => {
  const dir = tempDir(t);
  const store = new SessionStore(dir);
  const a = await store.create({ ...baseSession, id: "20261121-101010-aaaaaa" });
  const b = await store.create({ ...baseSession, id: "20261121-101010-abbbbb" });
  const c = await store.create({ ...baseSession, id: "20261122-090000-cccccc" });
  assert.equal(await store.resolve(a), a);
  assert.equal(await store.resolve("20261121-101010-ab"), b);
  assert.equal(await store.resolve("20261122"), c);
  await assert.rejects(store.resolve("20261121"), (err: unknown) => {
    assert.ok(err instanceof SessionError);
    assert.equal(err.code, "ambiguous");
    assert.match(err.message, /matches 2 sessions: 20261121-101010-aaaaaa, 20261121-101010-abbbbb/);
    return true;
  });
  await assert.rejects(store.resolve("1999"), { code: "not_found" });
  await assert.rejects(store.resolve("../etc"), { code: "invalid_id" });
  await assert.rejects(store.resolve(""), { code: "invalid_id" });
});

test("rename persists a title; delete removes the session", async (t) => {
  const { store, id } = await storeWithSession(t);
  store.appendMessage(id, msg("a", "user", "original"));
  await store.rename(id, "  Better\nname ");
  assert.equal((await store.load(id)).title, "Better name");
  await store.delete(id);
  assert.deepEqual(await store.list(), []);
  await assert.rejects(store.load(id), { code: "not_found" });
  await assert.rejects(store.delete(id), { code: "not_found" });
  assert.throws(() => store.appendMessage(id, msg("b", "user", "x")), { code: "not_found" });
});

test("a new session is written to, listed, deleted and closed before its creation is synced", async (t) => {
  const dir = tempDir(t);
  const store = new SessionStore(dir);
  const ids = await Promise.all([1, 2, 3].map(() => store.create(baseSession)));
  // create() returns once the file holds its meta; the fsyncs run behind it.
  store.appendMessage(ids[0]!, msg("a", "user", "first words"));
  assert.equal((await store.list()).length, 3);
  await store.delete(ids[1]!);
  await store.flush();
  assert.equal((await store.load(ids[0]!)).title, "first words");
  assert.deepEqual((await store.list()).map((s) => s.id).sort(), [ids[0], ids[2]].sort());
  await store.close();
  await store.close();
});

test("create refuses an existing id and unsafe ids", async (t) => {
  const { store, id } = await storeWithSession(t);
  await assert.rejects(store.create({ ...baseSession, id }), { code: "exists" });
  await assert.rejects(store.create({ ...baseSession, id: "../escape" }), { code: "invalid_id" });
});

test("forHome keeps sessions in <home>/sessions", () => {
  assert.equal(SessionStore.forHome("/home/u/.islet").dir, join("/home/u/.islet", "sessions"));
});
