/**
 * Where Claude Code's hooks reference says what a verdict does, in real turns against the loopback
 * model: a PreToolUse deny shows its systemMessage and the call never reaches PostToolUse; a
 * failed call runs PostToolUseFailure instead; PostToolUse `continue: false` ends the turn with
 * stopReason shown; SessionStart's context is in before the first prompt; an event Islet does not
 * run is one warning naming the file and the event.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { AgentEvent } from "../../core/events.ts";
import type { Conversation } from "../../engine/engine.ts";
import { startEngineRig, type EngineRig } from "../../engine/testing.ts";
import { NOBODY } from "../../host/questions.ts";

const log = (name: string) =>
  `cat >> "$CLAUDE_PROJECT_DIR/${name}.log"; echo >> "$CLAUDE_PROJECT_DIR/${name}.log"`;

const hooks = {
  hooks: {
    SessionStart: [{ hooks: [{ type: "command", command: "echo 'Project codeword: kestrel.'" }] }],
    PreToolUse: [
      {
        matcher: "Grep",
        hooks: [
          {
            type: "command",
            command: `echo '{"systemMessage":"Guard: searching is off in this project","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no searching"}}'`,
          },
        ],
      },
      {
        matcher: "Glob",
        hooks: [
          {
            type: "command",
            command: `echo '{"continue":false,"stopReason":"Globbing ends this turn."}'`,
          },
        ],
      },
    ],
    PostToolUse: [
      { hooks: [{ type: "command", command: log("post") }] },
      {
        matcher: "Ls",
        hooks: [
          {
            type: "command",
            command: `echo '{"continue":false,"stopReason":"Listing done: stop here."}'`,
          },
        ],
      },
    ],
    PostToolUseFailure: [{ hooks: [{ type: "command", command: log("failure") }] }],
    TeammateIdle: [{ hooks: [{ type: "command", command: "true" }] }],
  },
};

interface Body {
  messages: { role: string; content: unknown }[];
}
const text = (m: { content: unknown }): string => JSON.stringify(m.content);
const inputs = (file: string): Record<string, unknown>[] =>
  readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe("Claude Code's hook semantics in real turns", () => {
  let rig: EngineRig;
  let events: AgentEvent[] = [];
  let conv: Conversation;
  const body = (i: number): Body => rig.model.chatRequests[i].body as Body;

  before(async () => {
    rig = await startEngineRig({
      prefix: "islet-claude-semantics-",
      files: {
        "work/a.txt": "file a\n",
        "home/config/hooks/project.json": JSON.stringify(hooks),
      },
      script: [
        {
          toolCalls: [
            { id: "call_read", name: "Read", arguments: { path: "a.txt" } },
            { id: "call_grep", name: "Grep", arguments: { pattern: "file" } },
            { id: "call_missing", name: "Read", arguments: { path: "missing.txt" } },
          ],
        },
        { text: ["Read it."] },
        { toolCalls: [{ id: "call_ls", name: "Ls", arguments: {} }] },
        { toolCalls: [{ id: "call_glob", name: "Glob", arguments: { pattern: "*.txt" } }] },
        { text: ["Nor this one."] },
      ],
      questions: NOBODY,
    });
  });

  after(() => rig.close());

  it("names the file and the event Islet does not run, in one warning", () => {
    const { warnings } = rig;
    const about = warnings.filter((w) => w.includes("TeammateIdle"));
    assert.equal(about.length, 1, warnings.join("\n"));
    assert.ok(about[0].includes("project.json"), about[0]);
    assert.match(about[0], /Islet does not run Claude Code's TeammateIdle event/);
    assert.equal(warnings.length, 1, warnings.join("\n"));
  });

  it("puts SessionStart's context before the first prompt, and keeps it there", async () => {
    ({ conv, events } = await rig.open());
    const first = await conv.submit("read a.txt");
    assert.ok(first.kind === "turn" && first.outcome.status === "done");
    for (const i of [0, 1]) {
      const messages = body(i).messages;
      const context = messages.findIndex((m) => text(m).includes("Project codeword: kestrel."));
      const prompt = messages.findIndex((m) => m.role === "user" && text(m).includes("read a.txt"));
      assert.ok(context >= 0 && prompt >= 0, JSON.stringify(messages));
      assert.ok(context < prompt, `context at ${context}, prompt at ${prompt}`);
    }
  });

  it("sends a PreToolUse deny's reason to the model and shows its systemMessage", () => {
    const grep = events.find((e) => e.type === "tool_result" && e.id === "call_grep");
    assert.ok(grep?.type === "tool_result" && grep.error);
    assert.match(grep.output, /no searching/);
    const notices = events.filter((e) => e.type === "notice").map((e) => e.text);
    assert.ok(notices.includes("Guard: searching is off in this project"), notices.join("\n"));
  });

  it("runs PostToolUse for the call that succeeded only, PostToolUseFailure for the failed one", () => {
    // Not for the blocked Grep: it never ran.
    const post = inputs(rig.dirs.path("work/post.log"));
    assert.deepEqual(
      post.map((i) => [i.hook_event_name, i.tool_name]),
      [["PostToolUse", "Read"]],
    );
    const failure = inputs(rig.dirs.path("work/failure.log"));
    assert.equal(failure.length, 1);
    assert.equal(failure[0].hook_event_name, "PostToolUseFailure");
    assert.equal(failure[0].tool_name, "Read");
    assert.match(String(failure[0].error), /missing\.txt/);
  });

  it("ends the turn on PostToolUse continue:false, with stopReason shown", async () => {
    events.length = 0;
    const second = await conv.submit("list the files");
    assert.ok(second.kind === "turn" && second.outcome.status === "done");
    // The tool's result is in; the model is not asked again.
    assert.equal(rig.model.chatRequests.length, 3);
    assert.ok(events.some((e) => e.type === "tool_result" && e.id === "call_ls"));
    const notices = events.filter((e) => e.type === "notice").map((e) => e.text);
    assert.ok(notices.includes("Listing done: stop here."), notices.join("\n"));
    // SessionStart ran once: its context is still the one message before the first prompt.
    const later = body(2).messages.filter((m) => text(m).includes("Project codeword: kestrel."));
    assert.equal(later.length, 1);
  });

  it("ends the turn on PreToolUse continue:false without running the call", async () => {
    events.length = 0;
    const third = await conv.submit("find the text files");
    assert.ok(third.kind === "turn" && third.outcome.status === "done");
    assert.equal(rig.model.chatRequests.length, 4);
    const glob = events.find((e) => e.type === "tool_result" && e.id === "call_glob");
    assert.ok(glob?.type === "tool_result" && glob.error, JSON.stringify(glob));
    const notices = events.filter((e) => e.type === "notice").map((e) => e.text);
    assert.ok(notices.includes("Globbing ends this turn."), notices.join("\n"));
    // The call never ran, so PostToolUse did not run for it either.
    const post = inputs(rig.dirs.path("work/post.log")).map((i) => i.tool_name);
    assert.ok(!post.includes("Glob"), post.join(", "));
    await conv.close();
  });
});
