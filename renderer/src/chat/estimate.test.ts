/** Turn height estimates for the virtualized transcript: they follow what the turn holds. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { estimateTurnHeight, markdownHeight } from "./estimate.ts";
import { transcriptOf, type ChatEvent, type Turn } from "./transcript.ts";

const turnOf = (...events: ChatEvent[]): Turn => transcriptOf(events).turns[0];
const prose = (chars: number) => "word ".repeat(Math.ceil(chars / 5)).slice(0, chars);
const tool = (id: string): ChatEvent[] => [
  { type: "tool_call", id, name: "Read", arguments: { path: "a.ts" } },
  { type: "tool_result", id, name: "Read", output: "text", error: false, durationMs: 3 },
];

describe("estimateTurnHeight", () => {
  it("grows with the answer's length, by lines of the column's width", () => {
    const short = turnOf({ type: "user_message", text: "hi" }, { type: "assistant", text: "ok" });
    const long = turnOf(
      { type: "user_message", text: "hi" },
      { type: "assistant", text: prose(4000) },
    );
    const shortHeight = estimateTurnHeight(short, 800);
    const longHeight = estimateTurnHeight(long, 800);
    // 4,000 characters at ~110 a line: ~37 lines of 22 px more.
    assert.ok(longHeight - shortHeight > 700, `${shortHeight} → ${longHeight}`);
    assert.ok(longHeight - shortHeight < 1000, `${shortHeight} → ${longHeight}`);
    // Half as wide: about twice the lines (computed again, not the cached wider figure).
    assert.ok(estimateTurnHeight(long, 400) > longHeight * 1.6);
  });

  it("counts each tool card and the prompt's lines", () => {
    const prompt: ChatEvent = { type: "user_message", text: "fix it" };
    const none = estimateTurnHeight(turnOf(prompt, { type: "assistant", text: "done" }), 800);
    const three = estimateTurnHeight(
      turnOf(prompt, ...tool("a"), ...tool("b"), ...tool("c"), { type: "assistant", text: "done" }),
      800,
    );
    assert.ok(three - none >= 3 * 40, `${none} → ${three}`);
    const tall = estimateTurnHeight(
      turnOf(
        { type: "user_message", text: "line\n".repeat(10) },
        { type: "assistant", text: "ok" },
      ),
      800,
    );
    assert.ok(tall - none > 9 * 20, `${none} → ${tall}`);
  });
});

describe("markdownHeight", () => {
  it("keeps a code block's lines (they do not wrap into the paragraph)", () => {
    const code = "```ts\n" + "const x = 1;\n".repeat(20) + "```";
    const inline = "const x = 1; ".repeat(20);
    assert.ok(markdownHeight(code, 100) > 20 * 20);
    assert.ok(markdownHeight(inline, 100) < 4 * 23);
  });
});
