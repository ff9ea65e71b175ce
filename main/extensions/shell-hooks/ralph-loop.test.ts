/**
 * A Claude Code plugin in the shape of the Ralph loop plugins (ralph-wiggum, ralph-loop): its Stop
 * hook reads the state file the /ralph-loop command writes, takes the last assistant text from
 * `transcript_path` (lines holding `"role":"assistant"`, their `message.content` text blocks),
 * and blocks with the same prompt until the answer holds the completion promise. In a real turn
 * the loop must run pass after pass, which needs the Claude-shaped transcript, written before the
 * Stop hooks run with the answer they judge as its last line.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, statSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { startEngineRig, type EngineRig } from "../../engine/testing.ts";

// The logic of ralph-loop's stop-hook.sh, in Node so the test needs no jq.
const STOP_HOOK = String.raw`
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
const STATE = ".claude/ralph-loop.local.md";
if (!existsSync(STATE)) process.exit(0);
const state = readFileSync(STATE, "utf8");
const [, front, ...body] = state.split(/^---$/m);
const field = (k) => (front.match(new RegExp("^" + k + ": *(.*)$", "m")) ?? [])[1]?.replace(/^"(.*)"$/, "$1");
const iteration = Number(field("iteration"));
const max = Number(field("max_iterations"));
const promise = field("completion_promise");
if (max > 0 && iteration >= max) { rmSync(STATE); process.exit(0); }
if (!existsSync(input.transcript_path)) {
  console.error("Ralph loop: Transcript file not found");
  rmSync(STATE);
  process.exit(0);
}
const lines = readFileSync(input.transcript_path, "utf8").split("\n")
  .filter((l) => l.includes('"role":"assistant"')).slice(-100);
if (lines.length === 0) { console.error("Ralph loop: no assistant messages"); rmSync(STATE); process.exit(0); }
const texts = lines.flatMap((l) => (JSON.parse(l).message.content ?? [])
  .filter((b) => b.type === "text").map((b) => b.text));
const last = texts.at(-1) ?? "";
const said = last.match(/<promise>([\s\S]*?)<\/promise>/)?.[1].trim().replace(/\s+/g, " ");
if (said === promise) { console.log("Ralph loop: Detected <promise>" + promise + "</promise>"); rmSync(STATE); process.exit(0); }
writeFileSync(STATE, state.replace(/^iteration: .*$/m, "iteration: " + (iteration + 1)));
console.log(JSON.stringify({
  decision: "block",
  reason: body.join("---").trim(),
  systemMessage: "Ralph iteration " + (iteration + 1) + " | To stop: output <promise>" + promise + "</promise>",
}));
`;

const STATE = `---
active: true
iteration: 1
max_iterations: 10
completion_promise: "TESTS PASS"
---
Make the tests in test/ pass. Say <promise>TESTS PASS</promise> when they do.
`;

describe("a Ralph-like Stop hook reading transcript_path", () => {
  let rig: EngineRig;

  before(async () => {
    const hooks = {
      description: "Ralph-like stop hook",
      hooks: {
        Stop: [
          {
            hooks: [
              {
                type: "command",
                command: `"${process.execPath}" "\${CLAUDE_PLUGIN_ROOT}/hooks/stop-hook.mjs"`,
              },
            ],
          },
        ],
      },
    };
    const files = {
      "home/plugins/ralph-like/.claude-plugin/plugin.json": JSON.stringify({
        name: "ralph-like",
        version: "1.0.0",
      }),
      "home/plugins/ralph-like/hooks/hooks.json": JSON.stringify(hooks),
      "home/plugins/ralph-like/hooks/stop-hook.mjs": STOP_HOOK,
      "work/.claude/ralph-loop.local.md": STATE,
      "home/config/hooks/stop-log.json": JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                {
                  type: "command",
                  command:
                    'cat >> "$CLAUDE_PROJECT_DIR/stop.log"; echo >> "$CLAUDE_PROJECT_DIR/stop.log"',
                },
              ],
            },
          ],
        },
      }),
    };
    rig = await startEngineRig({
      prefix: "islet-ralph-",
      files,
      script: [
        { toolCalls: [{ id: "call_ls", name: "Ls", arguments: {} }] },
        { text: ["First pass: two tests still fail."] },
        { text: ["Second pass: one test still fails."] },
        { text: ["Third pass: all green. <promise>TESTS PASS</promise>"] },
        { text: ["This answer must never be asked for."] },
      ],
      plugins: {},
    });
  });

  after(() => rig.close());

  it("loops with the same prompt until the answer holds the promise", async () => {
    const { dirs, model, warnings } = rig;
    assert.deepEqual(warnings, []);
    const { conv, events } = await rig.open();
    const result = await conv.submit("Make the tests in test/ pass.");
    assert.ok(result.kind === "turn" && result.outcome.status === "done");

    // Three passes: the hook blocked after the first two answers and let the third one end.
    assert.equal(model.chatRequests.length, 4);
    assert.equal(result.outcome.text, "Third pass: all green. <promise>TESTS PASS</promise>");
    const prompt = "Make the tests in test/ pass. Say <promise>TESTS PASS</promise> when they do.";
    for (const i of [2, 3]) {
      const body = model.chatRequests[i].body as { messages: { role: string; content: unknown }[] };
      const lastMessage = body.messages[body.messages.length - 1];
      assert.equal(lastMessage.role, "user");
      assert.ok(JSON.stringify(lastMessage.content).includes(prompt), JSON.stringify(body));
    }
    // The hook ended the loop itself: it found the promise and removed its state file.
    assert.equal(existsSync(dirs.path("work/.claude/ralph-loop.local.md")), false);
    // Its systemMessage was shown to the user on each blocked pass.
    const notices = events.filter((e) => e.type === "notice").map((e) => e.text);
    assert.ok(
      notices.some((t) => t.startsWith("Ralph iteration 2 |")),
      notices.join("\n"),
    );
    assert.ok(
      notices.some((t) => t.startsWith("Ralph iteration 3 |")),
      notices.join("\n"),
    );

    // Each Stop input names the answer it is about, as Claude's `last_assistant_message` does.
    const stops = readFileSync(dirs.path("work/stop.log"), "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    assert.deepEqual(
      stops.map((s) => [s.last_assistant_message, s.stop_hook_active]),
      [
        ["First pass: two tests still fail.", false],
        ["Second pass: one test still fails.", true],
        ["Third pass: all green. <promise>TESTS PASS</promise>", true],
      ],
    );

    // The transcript is in Claude's shape: the prompt, the tool call and its result, each answer.
    const file = dirs.path(`home/sessions/claude/${conv.id}.jsonl`);
    assert.equal(statSync(file).mode & 0o077, 0, "only its owner reads the transcript");
    const entries = readFileSync(file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; message: { role: string; content: Block[] } });
    type Block = { type: string; text?: string; name?: string; tool_use_id?: string };
    const first = entries[0];
    assert.equal(first.type, "user");
    assert.deepEqual(first.message.content, [
      { type: "text", text: "Make the tests in test/ pass." },
    ]);
    const toolUse = entries.find((e) => e.message.content.some((b) => b.type === "tool_use"));
    assert.equal(toolUse?.type, "assistant");
    assert.equal(
      toolUse?.message.content.find((b) => b.type === "tool_use")?.name,
      "LS",
      "in Claude's name",
    );
    const toolResult = entries.find((e) => e.message.content.some((b) => b.type === "tool_result"));
    assert.equal(toolResult?.type, "user");
    assert.equal(toolResult?.message.content[0].tool_use_id, "call_ls");
    const answers = entries
      .filter((e) => e.type === "assistant")
      .flatMap((e) => e.message.content.filter((b) => b.type === "text").map((b) => b.text));
    assert.deepEqual(answers.slice(-3), [
      "First pass: two tests still fail.",
      "Second pass: one test still fails.",
      "Third pass: all green. <promise>TESTS PASS</promise>",
    ]);
    await conv.close();
  });
});
