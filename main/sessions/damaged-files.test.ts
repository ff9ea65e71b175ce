/**
 * What the sessions folder may hold besides healthy session files: folders and links named like
 * sessions, unreadable files, damaged lines. Listing skips what it cannot read and says which;
 * a link is never followed; list and load agree on what a damaged session holds.
 */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { SessionError, SessionStore } from "./store.ts";
import { baseSession, damagedSession, metaLine as meta, msg, tempDir } from "./testing.ts";
import { formatProblem } from "../host/problem.ts";

test("list skips a folder, a link and an unreadable file named like sessions, naming each", async (t) => {
  const dir = tempDir(t);
  const store = new SessionStore(dir);
  const good = await store.create({ ...baseSession, id: "20261121-100000-good" });
  store.appendMessage(good, msg("a", "user", "hello"));
  await store.close();
  mkdirSync(join(dir, "x.jsonl"));
  const secret = join(dir, "..", `secret-${process.pid}.txt`);
  writeFileSync(secret, meta("secret"));
  t.after(() => rmSync(secret, { force: true }));
  symlinkSync(secret, join(dir, "link.jsonl"));
  writeFileSync(join(dir, "locked.jsonl"), meta("locked"));
  chmodSync(join(dir, "locked.jsonl"), 0o000);
  const warnings: string[] = [];
  const list = await store.list({ warn: (p) => warnings.push(formatProblem(p)) });
  const root = process.getuid?.() === 0; // root reads anything: no EACCES to report
  assert.deepEqual(list.map((s) => s.id).sort(), root ? [good, "locked"] : [good]);
  assert.deepEqual(warnings.sort(), [
    `${join(dir, "link.jsonl")} is a symbolic link; session files are never followed: skipped`,
    ...(root ? [] : [`${join(dir, "locked.jsonl")}: cannot read it (EACCES): skipped`]),
    `${join(dir, "x.jsonl")} is not a file: skipped`,
  ]);
});

test("a session that is a link is refused by load and never appended through", async (t) => {
  const dir = tempDir(t);
  const store = new SessionStore(dir);
  const target = join(dir, "..", `target-${process.pid}.jsonl`);
  writeFileSync(target, meta("target"));
  t.after(() => rmSync(target, { force: true }));
  symlinkSync(target, join(dir, "20261121-100000-link.jsonl"));
  const refused = (err: unknown) =>
    err instanceof SessionError &&
    err.code === "unreadable" &&
    /is a symbolic link; session files are never followed$/.test(err.message);
  await assert.rejects(store.load("20261121-100000-link"), refused);
  await assert.rejects(store.rename("20261121-100000-link", "pwned"), refused);
  assert.equal(readFileSync(target, "utf8"), meta("target"));
  await store.close();
});

test("list and load agree on a damaged session: same count, load names each damaged line", async (t) => {
  const dir = tempDir(t);
  const store = new SessionStore(dir);
  const id = "20261121-100000-dmgd";
  writeFileSync(join(dir, `${id}.jsonl`), damagedSession(id));
  const [summary] = await store.list();
  const loaded = await store.load(id);
  assert.deepEqual(
    loaded.messages.map((m) => m.id),
    ["a", "b"],
  );
  assert.equal(summary.messageCount, loaded.messages.length);
  const file = join(dir, `${id}.jsonl`);
  assert.deepEqual(loaded.warnings.map(formatProblem), [
    `${file}:3: skipped line: not valid JSON`,
    `${file}:4: skipped line: message.role is invalid (robot)`,
    `${file}:6: dropped torn last line`,
  ]);
});
