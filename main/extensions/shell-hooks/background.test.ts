/**
 * Claude Code's hook fields that decide when and how long a hook holds the turn: `if` (a
 * permission rule: the hook runs only for the calls it covers), `async: true` and the first-line
 * `{"async":true}` protocol (the turn does not wait), and `asyncRewake` (what the background hook
 * finds reaches the model afterwards, after `rewakeMessage`).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { startEngineRig } from "../../engine/testing.ts";

/** Waits (at most 20 s) for `file` in the project, then runs `then`. */
const after = (file: string, then: string) =>
  `i=0; while [ ! -e "$CLAUDE_PROJECT_DIR/${file}" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i+1)); done; ${then}`;

const hooks = {
  hooks: {
    PreToolUse: [
      {
        matcher: "Bash",
        hooks: [
          {
            type: "command",
            if: "Bash(git commit:*)",
            command: 'echo ran >> "$CLAUDE_PROJECT_DIR/commit-hook-runs"',
          },
        ],
      },
    ],
    PostToolUse: [
      {
        matcher: "Bash",
        hooks: [
          {
            type: "command",
            async: true,
            command: after("go", 'touch "$CLAUDE_PROJECT_DIR/async-done"'),
          },
          {
            type: "command",
            command: `echo '{"async":true,"asyncTimeout":30000}'; ${after("go", 'touch "$CLAUDE_PROJECT_DIR/protocol-done"')}`,
          },
          {
            type: "command",
            if: "Bash(git commit:*)",
            asyncRewake: true,
            rewakeMessage: "Background review of the commit:",
            rewakeSummary: "Commit review found issues",
            // Its own summary on the first JSON line of stdout takes the configured one's place.
            command:
              'touch "$CLAUDE_PROJECT_DIR/review-ran"; echo \'{"rewakeSummary":"Leaked key in config.ts"}\'; echo "the commit leaks a key" >&2; exit 2',
          },
        ],
      },
    ],
  },
};

test("if narrows a hook to the calls it covers; async hooks do not hold the turn; asyncRewake reports later", async () => {
  const rig = await startEngineRig({
    prefix: "islet-background-hooks-",
    files: { "work/.keep": "", "home/config/hooks/bg.json": JSON.stringify(hooks) },
    script: [
      {
        toolCalls: [
          { id: "c1", name: "Bash", arguments: { command: "echo hi" } },
          { id: "c2", name: "Bash", arguments: { command: "FOO=1 git commit -m x || true" } },
        ],
      },
      { text: ["Committed."] },
      { text: ["Looking at the review."] },
    ],
  });
  const { dirs, model, warnings } = rig;
  try {
    const { conv, events } = await rig.open();
    // Both background hooks wait for "go", which comes only after the turn: it did not wait.
    const first = await conv.submit("commit it");
    assert.ok(first.kind === "turn" && first.outcome.status === "done");
    assert.equal(first.outcome.text, "Committed.");
    assert.ok(!existsSync(dirs.path("work/async-done")));
    assert.ok(!existsSync(dirs.path("work/protocol-done")));
    writeFileSync(dirs.path("work/go"), "");
    const deadline = Date.now() + 20_000;
    const there = (f: string) => existsSync(dirs.path(`work/${f}`));
    while (Date.now() < deadline && !(there("async-done") && there("protocol-done")))
      await sleep(50);
    assert.ok(there("async-done") && there("protocol-done"), "they ran on in the background");

    // `if "Bash(git commit:*)"`: once, for the commit (behind its FOO=1), not for `echo hi`.
    assert.equal(readFileSync(dirs.path("work/commit-hook-runs"), "utf8"), "ran\n");

    // The review ran in the background; what it found reaches the model with the next prompt.
    while (Date.now() < deadline && !there("review-ran")) await sleep(50);
    await sleep(500); // its exit, read back after the marker
    const second = await conv.submit("go on");
    assert.ok(second.kind === "turn" && second.outcome.status === "done");
    const sent = JSON.stringify(model.chatRequests.at(-1)!.body);
    assert.match(sent, /Background review of the commit:\\n\\nthe commit leaks a key/);
    assert.equal(
      model.chatRequests.filter((r) => JSON.stringify(r.body).includes("leaks a key")).length,
      1,
      "delivered once",
    );
    // The user's line is the hook's summary, not the whole finding.
    const notices = events.flatMap((e) => (e.type === "notice" ? [e.text] : []));
    assert.ok(notices.includes("Leaked key in config.ts"), notices.join("\n"));
    assert.ok(!notices.includes("Commit review found issues"), notices.join("\n"));
    await conv.close();
    assert.deepEqual(warnings, []);
  } finally {
    await rig.close();
  }
});
