/**
 * Hooks of one event run at once, as in Claude Code: two UserPromptSubmit commands from two files
 * each wait for the other to have started (a sequential run would leave the first waiting until
 * it gives up), and what they add still reaches the model in file order although the second one
 * finishes first.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { startEngineRig } from "../../engine/testing.ts";
import { NOBODY } from "../../host/questions.ts";

/** Marks `self` as started, waits (at most 20 s) for `other`, then says `words`. */
const rendezvous = (self: string, other: string, words: string, after = "") =>
  `touch "$CLAUDE_PROJECT_DIR/${self}"; i=0; ` +
  `while [ ! -e "$CLAUDE_PROJECT_DIR/${other}" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; ` +
  `[ -e "$CLAUDE_PROJECT_DIR/${other}" ] || { echo "never met ${other}" >&2; exit 1; }; ` +
  `${after}echo "${words}"`;

const hooks = (command: string) =>
  JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command }] }] } });

test("the hooks of one event run at once; their context reaches the model in file order", async () => {
  // a.json waits for b to start and then for b to finish: b ends first, a is still folded first.
  const waitForB =
    'i=0; while [ ! -e "$CLAUDE_PROJECT_DIR/b-done" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; ';
  const rig = await startEngineRig({
    prefix: "islet-parallel-hooks-",
    files: {
      "work/.keep": "",
      "home/config/hooks/a.json": hooks(rendezvous("a", "b", "Context from a.", waitForB)),
      "home/config/hooks/b.json": hooks(
        rendezvous("b", "a", "Context from b.").replace(
          /echo "Context from b\."$/,
          'echo "Context from b."; touch "$CLAUDE_PROJECT_DIR/b-done"',
        ),
      ),
    },
    script: [{ text: ["Heard you."] }],
    questions: NOBODY,
  });
  const { model, warnings } = rig;
  try {
    const { conv, events } = await rig.open();
    const result = await conv.submit("hello");
    assert.ok(result.kind === "turn" && result.outcome.status === "done");
    const notices = events.filter((e) => e.type === "notice").map((e) => e.text);
    assert.deepEqual(
      notices.filter((t) => /never met/.test(t)),
      [],
      notices.join("\n"),
    );
    const sent = JSON.stringify(model.chatRequests[0]!.body);
    const a = sent.indexOf("Context from a.");
    const b = sent.indexOf("Context from b.");
    assert.ok(a >= 0 && b >= 0, sent);
    assert.ok(a < b, "folded in file order, not in the order they finished");
    const entries = events.flatMap((e) => (e.type === "hook_trace" ? e.entries : []));
    const ran = entries.filter((e) => /^[ab]\.json:UserPromptSubmit$/.test(e.source));
    assert.deepEqual(
      ran.map((e) => [e.source, e.status]),
      [
        ["a.json:UserPromptSubmit", "ok"],
        ["b.json:UserPromptSubmit", "ok"],
      ],
    );
    await conv.close();
    assert.deepEqual(warnings, []);
  } finally {
    await rig.close();
  }
});
