import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { SessionStore } from "../sessions/store.ts";
import type { SessionSink } from "./session-sink.ts";
import { startHarness } from "./testing.ts";

/** A real session file whose fsync (flush) waits for `release`, or fails when told to. */
async function heldSink(dir: string): Promise<{
  store: SessionStore;
  id: string;
  sink: SessionSink;
  release(): void;
  synced: () => boolean;
}> {
  const store = new SessionStore(path.join(dir, "sessions"));
  const id = await store.create({ workdir: dir, agent: "default", provider: "fake", model: "m" });
  let release = (): void => {};
  const gate = new Promise<void>((r) => (release = r));
  let synced = false;
  const sink: SessionSink = {
    id,
    appendMessage: (message) => store.appendMessage(id, message),
    removeMessages: (ids) => store.append(id, { t: "remove", ids }),
    resetMessages: (messages) => store.append(id, { t: "reset", messages }),
    setTodos: (todos) => store.append(id, { t: "todos", todos }),
    setAgent: (agent) => store.append(id, { t: "agent", agent }),
    setStats: (stats) => store.append(id, { t: "stats", stats }),
    flush: () => gate.then(() => store.flush(id)).then(() => void (synced = true)),
  };
  return { store, id, sink, release, synced: () => synced };
}

test("a turn ends (done, send resolves) without waiting for the session file's fsync; its records are already written", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-settle-"));
  const held = await heldSink(dir);
  const h = await startHarness([{ text: ["Hi ", "there"] }], { session: held.sink });
  try {
    // Before: send waited for the fsync, so it never resolved while the disk was held.
    const out = await Promise.race([
      h.session.send("hello"),
      new Promise<"waited">((r) => setTimeout(() => r("waited"), 10_000).unref()),
    ]);
    assert.notEqual(out, "waited", "the turn waited for the fsync");
    assert.equal(h.of("done").length, 1);
    assert.equal(held.synced(), false);
    const saved = await held.store.load(held.id);
    assert.deepEqual(
      saved.messages.map((m) => [m.role, m.content]),
      [
        ["user", "hello"],
        ["assistant", "Hi there"],
      ],
    );
    assert.equal(saved.stats?.turns, 1);
    held.release();
    await held.store.close();
    assert.equal(held.synced(), true);
  } finally {
    held.release();
    await h.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test("an fsync that fails after the turn is reported as a notice, and the next turn runs", async () => {
  const h = await startHarness([{ text: ["one"] }, { text: ["two"] }], {
    session: {
      id: "s",
      appendMessage: () => {},
      removeMessages: () => {},
      resetMessages: () => {},
      setTodos: () => {},
      setAgent: () => {},
      setStats: () => {},
      flush: () => Promise.reject(new Error("EIO: i/o error, fsync")),
    },
  });
  try {
    assert.equal((await h.session.send("a")).status, "done");
    assert.equal((await h.session.send("b")).status, "done");
    await new Promise((r) => setImmediate(r));
    const notices = h.of("notice").map((n) => n.text);
    assert.deepEqual(notices, [
      "session not synced: EIO: i/o error, fsync",
      "session not synced: EIO: i/o error, fsync",
    ]);
  } finally {
    await h.close();
  }
});
