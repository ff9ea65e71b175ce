/**
 * Claude Code's PostToolBatch, PostCompact and StopFailure in real turns against the loopback
 * model, as shell scripts: PostToolBatch gets the step's calls in Claude's names and shapes once
 * their results are in and its block reason reaches the next model call; PostCompact gets the
 * trigger and the summary after /compact; StopFailure gets Claude's error type when a model call
 * fails for good; UserPromptExpansion sees a command's expanded prompt, adds to it or blocks it.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { startEngineRig, type EngineRig } from "../../engine/testing.ts";

const saveTo = (name: string) => `cat > "$CLAUDE_PROJECT_DIR/${name}"`;

const HOOKS = {
  hooks: {
    PostToolBatch: [
      {
        hooks: [
          {
            type: "command",
            command: `${saveTo("batch.json")}; echo '{"decision":"block","reason":"Batch checked: mind the tests."}'`,
          },
        ],
      },
    ],
    PostCompact: [
      {
        matcher: "manual",
        hooks: [
          {
            type: "command",
            command: `${saveTo("compact.json")}; echo '{"systemMessage":"compaction noted"}'`,
          },
        ],
      },
    ],
    StopFailure: [
      {
        matcher: "authentication_failed",
        hooks: [{ type: "command", command: saveTo("failure.json") }],
      },
    ],
  },
};

interface Body {
  messages: { role: string; content: unknown }[];
}

describe("PostToolBatch, PostCompact and StopFailure hooks", () => {
  let rig: EngineRig;
  const read = (name: string) =>
    JSON.parse(readFileSync(rig.dirs.path(`work/${name}`), "utf8")) as Record<string, unknown>;

  before(async () => {
    rig = await startEngineRig({
      prefix: "islet-claude-events-",
      files: {
        "home/config/hooks/events.json": JSON.stringify(HOOKS),
        "work/a.txt": "alpha\nbeta\n",
      },
      script: [
        {
          toolCalls: [
            { id: "call_read", name: "Read", arguments: { path: "a.txt" } },
            { id: "call_echo", name: "Bash", arguments: { command: "echo hi" } },
          ],
        },
        { text: ["Read it."] },
        { text: ["a2"] },
        { text: ["a3"] },
        { text: ["a4"] },
        { text: ["The user asked four things."] },
        { error: { status: 401 } },
      ],
      plugins: {},
    });
  });

  after(() => rig.close());

  it("runs each at its point with Claude's fields", async () => {
    const { dirs, model, warnings } = rig;
    assert.deepEqual(
      warnings.filter((w) => w.includes("events.json")),
      [],
      "no event is 'not fired yet'",
    );
    const { conv, events } = await rig.open();
    const r = await conv.submit("read a.txt");
    assert.ok(r.kind === "turn" && r.outcome.status === "done", JSON.stringify(r));

    // Once, after both results, with Claude's names, fields and response shapes.
    const batch = read("batch.json");
    assert.equal(batch.hook_event_name, "PostToolBatch");
    assert.deepEqual(batch.tool_calls, [
      {
        tool_name: "Read",
        tool_input: { file_path: "a.txt" },
        tool_use_id: "call_read",
        tool_response: {
          type: "text",
          file: {
            filePath: dirs.path("work/a.txt"),
            content: "alpha\nbeta",
            numLines: 2,
            startLine: 1,
            totalLines: 2,
          },
        },
      },
      {
        tool_name: "Bash",
        tool_input: { command: "echo hi" },
        tool_use_id: "call_echo",
        tool_response: { stdout: "hi", stderr: "", interrupted: false, isImage: false },
      },
    ]);
    // Its reason reaches the model's next call, after the results.
    const second = model.chatRequests[1].body as Body;
    assert.ok(
      JSON.stringify(second.messages.at(-1)).includes("Batch checked: mind the tests."),
      JSON.stringify(second.messages.slice(-3)),
    );

    for (const q of ["q2", "q3", "q4"]) await conv.submit(q);
    const compact = await conv.submit("/compact");
    assert.equal(compact.kind, "command");
    const post = read("compact.json");
    assert.equal(post.hook_event_name, "PostCompact");
    assert.equal(post.trigger, "manual");
    assert.equal(post.compact_summary, "The user asked four things.");
    assert.ok(
      events.some((e) => e.type === "notice" && e.text.includes("compaction noted")),
      "its systemMessage is shown",
    );

    const failed = await conv.submit("one more");
    assert.ok(failed.kind === "turn" && failed.outcome.status === "error", JSON.stringify(failed));
    const failure = read("failure.json");
    assert.equal(failure.hook_event_name, "StopFailure");
    assert.equal(failure.error, "authentication_failed");
    assert.equal(typeof failure.error_details, "string");
    assert.equal(failure.last_assistant_message, "a4");
    await conv.close();
  });
});

describe("UserPromptExpansion hooks", () => {
  let rig: EngineRig;

  before(async () => {
    const guard = `
import { readFileSync, writeFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
writeFileSync(process.env.CLAUDE_PROJECT_DIR + "/expansion.json", JSON.stringify(input));
if (input.command_args.includes("friday")) { process.stderr.write("not on fridays"); process.exit(2); }
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "UserPromptExpansion", additionalContext: "Checklist: run the tests first." } }));
`;
    rig = await startEngineRig({
      prefix: "islet-prompt-expansion-",
      files: {
        "home/scripts/guard.mjs": guard,
        "home/config/commands/deploy.md": "---\ndescription: Deploy\n---\nDeploy $ARGUMENTS now.\n",
        "home/config/hooks/expansion.json": JSON.stringify({
          hooks: {
            UserPromptExpansion: [
              {
                matcher: "deploy",
                hooks: [
                  {
                    type: "command",
                    // The workspace is work/ beside the home.
                    command: `${JSON.stringify(process.execPath)} "$CLAUDE_PROJECT_DIR/../home/scripts/guard.mjs"`,
                  },
                ],
              },
            ],
          },
        }),
        "work/.keep": "",
      },
      script: [{ text: ["Deploying."] }],
      plugins: {},
    });
  });

  after(() => rig.close());

  it("sees the expanded prompt, adds context, and blocks with a reason", async () => {
    const { dirs, model } = rig;
    const { conv, events } = await rig.open();
    const ok = await conv.submit("/deploy staging");
    assert.ok(ok.kind === "command" && ok.outcome?.status === "done", JSON.stringify(ok));
    const input = JSON.parse(readFileSync(dirs.path("work/expansion.json"), "utf8")) as Record<
      string,
      unknown
    >;
    assert.equal(input.hook_event_name, "UserPromptExpansion");
    assert.equal(input.expansion_type, "slash_command");
    assert.equal(input.command_name, "deploy");
    assert.equal(input.command_args, "staging");
    assert.equal(input.command_source, "skill");
    assert.equal(input.prompt, "Deploy staging now.");
    const sent = JSON.stringify((model.chatRequests[0].body as Body).messages.at(-1));
    assert.ok(
      sent.includes("Deploy staging now.") && sent.includes("Checklist: run the tests first."),
      sent,
    );

    const blocked = await conv.submit("/deploy friday");
    assert.ok(blocked.kind === "command" && blocked.outcome === undefined, JSON.stringify(blocked));
    assert.equal(model.chatRequests.length, 1, "nothing was sent");
    assert.ok(
      events.some((e) => e.type === "notice" && e.text === "Prompt blocked: not on fridays"),
      JSON.stringify(events.filter((e) => e.type === "notice")),
    );
    await conv.close();
  });
});
