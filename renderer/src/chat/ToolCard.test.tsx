/** A tool card's state line: a call nobody approved is shown as a choice, never as a failure. */
import { cleanup, FakeBridge, renderWith, screen } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { AgentEvent } from "../../../main/bridge/contract.ts";
import { ToolCard } from "./ToolCard.tsx";
import { EMPTY_TRANSCRIPT, reduceTranscript, type Item } from "./transcript.ts";

afterEach(cleanup);

/** The card's item after a Bash call and its result, as the engine sends them. */
function toolItem(result: Partial<Extract<AgentEvent, { type: "tool_result" }>>) {
  const events: AgentEvent[] = [
    { type: "user_message", text: "clean up" },
    { type: "tool_call", id: "c1", name: "Bash", arguments: { command: "rm -rf build" } },
    {
      type: "tool_result",
      id: "c1",
      name: "Bash",
      output: "",
      error: true,
      durationMs: 0,
      ...result,
    },
  ];
  const t = reduceTranscript(EMPTY_TRANSCRIPT, { type: "events", events });
  const item = t.turns[0].items.find((i) => i.kind === "tool");
  assert.ok(item?.kind === "tool");
  return item as Extract<Item, { kind: "tool" }>;
}

function show(item: Extract<Item, { kind: "tool" }>) {
  renderWith(new FakeBridge(), <ToolCard item={item} approval={null} onAnswer={() => undefined} />);
  const card = screen.getByRole("article", { name: "Tool Bash" });
  return card;
}

describe("ToolCard", () => {
  it("denied by the person: 'Denied by you', neutral, no duration, no red error line", () => {
    const card = show(
      toolItem({
        output: "Not run: the user declined this Bash call. Do not retry the same call.",
        denied: "user",
      }),
    );
    const state = card.querySelector(".tool-state");
    assert.equal(state?.textContent, "Denied by you");
    assert.equal(state?.className, "tool-state tool-state-denied");
    assert.ok(!card.className.includes("tool-error"));
    assert.equal(card.querySelector(".tool-error-line"), null);
    assert.doesNotMatch(card.textContent ?? "", /Failed|0 ms/);
  });

  it("nobody could be asked: 'No one to ask'", () => {
    const card = show(toolItem({ output: "Not run: Bash needs approval…", denied: "no_one" }));
    assert.equal(card.querySelector(".tool-state")?.textContent, "No one to ask");
  });

  it("a real failure is still Failed, with its duration and first line", () => {
    const card = show(toolItem({ output: "exit code 1", durationMs: 40 }));
    assert.equal(card.querySelector(".tool-state")?.textContent, "Failed · 40 ms");
    assert.ok(card.className.includes("tool-error"));
  });
});
