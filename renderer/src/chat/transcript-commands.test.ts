/** The transcript reducer and commands: their output, their prompt, and a forwarded command. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { transcriptOf, type ChatEvent } from "./transcript.ts";
import { events, run, shape, stats } from "./transcript-testing.ts";

describe("transcript reducer: commands", () => {
  it("a command's output is shown unless silent", () => {
    const t = run(
      { type: "prompt", text: "/help" },
      {
        type: "ended",
        outcome: {
          status: null,
          text: "",
          command: { name: "help", output: "/agent", silent: false },
          error: null,
        },
      },
    );
    assert.deepEqual(shape(t)[0].items, [{ kind: "command", name: "help", output: "/agent" }]);
  });

  it("a command's prompt and output from the engine show once, live and reopened alike", () => {
    const saved: ChatEvent[] = [
      { type: "user_message", text: "/help" },
      { type: "command_output", name: "help", output: "/agent NAME" },
      { type: "done", stats, sessionId: "s" },
    ];
    const live = run({ type: "prompt", text: "/help" }, events(...saved), {
      type: "ended",
      outcome: {
        status: null,
        text: "",
        command: { name: "help", output: "/agent NAME", silent: false },
        error: null,
      },
    });
    const expected = [
      {
        prompt: "/help",
        status: "done",
        items: [{ kind: "command", name: "help", output: "/agent NAME" }],
      },
    ];
    assert.deepEqual(shape(live), expected);
    assert.deepEqual(shape(transcriptOf(saved)), expected);
  });

  it("a command that forwards its text: the command's turn ends where the forwarded prompt starts", () => {
    const t = run(
      { type: "prompt", text: "/greet bob" },
      events(
        { type: "user_message", text: "/greet bob" },
        { type: "user_message", text: "Say hello to bob" },
        { type: "assistant", text: "Hello bob" },
      ),
    );
    assert.deepEqual(
      t.turns.map((turn) => [turn.prompt, turn.status]),
      [
        ["/greet bob", "done"],
        ["Say hello to bob", "running"],
      ],
    );
  });
});
