/**
 * The Claude-shaped transcript follows a real session file: new messages are appended, an answer
 * a Stop hook judges is the last line until the session file says what became of it, and ejected
 * messages or a compaction rebuild it from the file.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { it } from "node:test";
import { ClaudeTranscripts, claudeTranscriptPath } from "./claude-transcript.ts";
import { SessionStore } from "./store.ts";
import { baseSession, msg, tempDir } from "./testing.ts";

interface Entry {
  type: string;
  uuid: string;
  parentUuid: string | null;
  message: { role: string; content: Record<string, unknown>[] };
}

const read = (file: string): Entry[] =>
  readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Entry);

it("follows the session file: appends, a pending answer, ejections, compaction, deletion", async (t) => {
  const home = tempDir(t);
  const store = new SessionStore(join(home, "sessions"), { appVersion: "0.1.0" });
  t.after(() => store.close());
  const id = await store.create(baseSession);
  const transcripts = new ClaudeTranscripts(home);

  store.appendMessage(id, msg("m1", "user", "fix the tests"));
  store.appendMessage(
    id,
    msg("m2", "assistant", "Looking.", {
      toolCalls: [
        { id: "c1", name: "Read", arguments: { path: "a.ts" } },
        { id: "c2", name: "Patch", arguments: { path: "b.ts", old_string: "x", new_string: "y" } },
      ],
    }),
  );
  store.appendMessage(id, msg("m3", "tool", "no such file", { toolCallId: "c1", isError: true }));
  const file = transcripts.sync(id, "/work/proj", { content: "Done." });
  assert.equal(file, claudeTranscriptPath(home, id));

  let entries = read(file);
  assert.deepEqual(
    entries.map((e) => [e.type, e.message.role]),
    [
      ["user", "user"],
      ["assistant", "assistant"],
      ["user", "user"],
      ["assistant", "assistant"],
    ],
  );
  assert.deepEqual(entries[0].message.content, [{ type: "text", text: "fix the tests" }]);
  assert.deepEqual(entries[1].message.content, [
    { type: "text", text: "Looking." },
    // Claude's names and fields, as transcript-reading plugins expect what Claude writes.
    { type: "tool_use", id: "c1", name: "Read", input: { file_path: "a.ts" } },
    {
      type: "tool_use",
      id: "c2",
      name: "Edit",
      input: { file_path: "b.ts", old_string: "x", new_string: "y" },
    },
  ]);
  assert.deepEqual(entries[2].message.content, [
    { type: "tool_result", tool_use_id: "c1", content: "no such file", is_error: true },
  ]);
  assert.deepEqual(entries[3].message.content, [{ type: "text", text: "Done." }]);
  assert.equal(entries[1].parentUuid, "m1");
  // Lines are compact JSON: the Ralph scripts grep for '"role":"assistant"'.
  assert.ok(readFileSync(file, "utf8").includes('"role":"assistant"'));

  // The answer entered history as rewritten: the pending line gives way to it.
  store.appendMessage(id, msg("m4", "assistant", "Done, all green."));
  entries = read(transcripts.sync(id, "/work/proj"));
  assert.equal(entries.length, 4);
  assert.deepEqual(entries[3].message.content, [{ type: "text", text: "Done, all green." }]);

  // An ejected message leaves; a compaction replaces the history.
  store.append(id, { t: "remove", ids: ["m3"] });
  entries = read(transcripts.sync(id, "/work/proj"));
  assert.deepEqual(
    entries.map((e) => e.uuid),
    ["m1", "m2", "m4"],
  );
  store.append(id, {
    t: "reset",
    messages: [msg("s1", "user", "Summary of earlier work.", { kind: "summary" })],
  });
  store.appendMessage(id, msg("m5", "user", "go on"));
  entries = read(transcripts.sync(id, "/work/proj"));
  assert.deepEqual(
    entries.map((e) => e.uuid),
    ["s1", "m5"],
  );

  // A second registry (hooks reloaded) starts from the file and writes the same transcript.
  const again = read(new ClaudeTranscripts(home).sync(id, "/work/proj"));
  assert.deepEqual(again, entries);

  // Deleting the session deletes its transcript.
  await store.delete(id);
  assert.equal(existsSync(file), false);
});
