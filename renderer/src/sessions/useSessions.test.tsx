/** The sessions list: a search waits for typing to pause; sessions/changed lists again. */
import { act, cleanup, FakeBridge, renderWith, screen, waitFor } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { useSessions } from "./useSessions.ts";

afterEach(cleanup);

function engine() {
  return new FakeBridge().handle("sessions/list", ({ query }) => ({
    sessions: [
      {
        id: "s1",
        title: query ? `match for ${query}` : "every session",
        createdAt: "2026-01-01T00:00:00.000Z",
        updatedAt: "2026-01-01T00:00:00.000Z",
        messageCount: 2,
        agent: "build",
        provider: "local",
        model: "m",
        open: false,
        match: null,
      },
    ],
  }));
}

function Titles({ query }: { query: string }) {
  const sessions = useSessions(query);
  return (
    <ul>
      {sessions.items?.map((s) => (
        <li key={s.id}>{s.title}</li>
      ))}
    </ul>
  );
}

describe("useSessions", () => {
  it("searches once typing pauses, with the trimmed text", async () => {
    const bridge = engine();
    const view = renderWith(bridge, <Titles query="" />);
    await screen.findByText("every session");
    view.rerender(<Titles query="b" />);
    view.rerender(<Titles query="bu" />);
    view.rerender(<Titles query="bug " />);
    assert.equal(bridge.requests("sessions/list").length, 1, "not while typing");
    await screen.findByText("match for bug");
    assert.deepEqual(bridge.requests("sessions/list"), [{}, { query: "bug" }]);
    view.rerender(<Titles query="" />);
    await screen.findByText("every session");
  });

  it("lists again when a session changes anywhere", async () => {
    const bridge = engine();
    renderWith(bridge, <Titles query="" />);
    await screen.findByText("every session");
    act(() => bridge.emit("sessions/changed", { cause: "created", id: "s2" }));
    await waitFor(() => assert.equal(bridge.requests("sessions/list").length, 2));
  });
});
