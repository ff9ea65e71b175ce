/** The hook timeline tells how many extensions a turn over its prompt budget offered. */
import { cleanup, FakeBridge, renderWith, screen } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { AgentEvent } from "../../../main/bridge/contract.ts";
import { HookTimeline } from "./HookTimeline.tsx";
import { EMPTY_TRANSCRIPT, reduceTranscript } from "./transcript.ts";

afterEach(cleanup);

const offered = (n: number, searched: boolean): AgentEvent => ({
  type: "extensions_offered",
  offered: n,
  total: 518,
  searched,
  budget: 409,
  tokens: 300,
  turn: 1,
});

describe("HookTimeline: the prompt budget's line", () => {
  it("shows the turn's latest count, with no hook calls at all", () => {
    const events: AgentEvent[] = [
      { type: "user_message", text: "invoice" },
      offered(24, false),
      offered(27, true),
    ];
    const turn = reduceTranscript(EMPTY_TRANSCRIPT, { type: "events", events }).turns[0];
    assert.deepEqual(turn.offer, { offered: 27, total: 518, searched: true });
    renderWith(new FakeBridge(), <HookTimeline entries={[]} offer={turn.offer} turnId={1} />);
    const section = screen.getByRole("region", { name: "Hook timeline" });
    assert.equal(section.textContent, "Offered 27 of 518 extensions; search used");
  });

  it("draws nothing for a turn whose extensions all fit and no hook ran", () => {
    const turn = reduceTranscript(EMPTY_TRANSCRIPT, {
      type: "events",
      events: [{ type: "user_message", text: "hi" }],
    }).turns[0];
    assert.equal(turn.offer, null);
    const { container } = renderWith(
      new FakeBridge(),
      <HookTimeline entries={turn.hooks} offer={turn.offer} turnId={1} />,
    );
    assert.equal(container.textContent, "");
  });
});
