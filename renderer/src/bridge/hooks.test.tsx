/** useBridgeQuery: a call kept fresh, with its request, against the fake transport. */
import {
  act,
  cleanup,
  FakeBridge,
  renderWith,
  screen,
  textOf,
  waitFor,
} from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridgeQuery } from "./hooks.ts";

afterEach(cleanup);

type Sessions = CallResponse<"sessions/list">;
const sessions = (...titles: string[]): Sessions => ({
  sessions: titles.map((title, i) => ({
    id: `s${i}`,
    title,
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    messageCount: 1,
    agent: "build",
    provider: "local",
    model: "m",
    open: false,
    match: null,
  })),
});

/** Shows what a sessions search answers, as a view using the hook would. */
function Search({ query, enabled = true }: { query: string; enabled?: boolean }) {
  const list = useBridgeQuery("sessions/list", query ? { query } : {}, {
    refreshOn: ["sessions/changed"],
    enabled,
  });
  return (
    <div>
      <p>{list.loading ? "loading" : "idle"}</p>
      {list.error ? <p role="alert">{list.error}</p> : null}
      <ul>
        {list.data?.sessions.map((s) => (
          <li key={s.id}>{s.title}</li>
        ))}
      </ul>
    </div>
  );
}

describe("useBridgeQuery", () => {
  it("calls with its request, and again only when the request changes by value", async () => {
    const bridge = new FakeBridge().handle("sessions/list", (r) =>
      sessions(`found ${r.query ?? "all"}`),
    );
    const view = renderWith(bridge, <Search query="" />);
    await screen.findByText("found all");
    view.rerender(<Search query="" />);
    view.rerender(<Search query="" />);
    view.rerender(<Search query="bug" />);
    await screen.findByText("found bug");
    view.rerender(<Search query="bug" />);
    await screen.findByText("idle");
    assert.deepEqual(bridge.requests("sessions/list"), [{}, { query: "bug" }]);
  });

  it("shows the newest request's answer when an older one arrives after it", async () => {
    const pending = new Map<string, PromiseWithResolvers<Sessions>>();
    const bridge = new FakeBridge().handle("sessions/list", (r) => {
      const answer = Promise.withResolvers<Sessions>();
      pending.set(r.query ?? "", answer);
      return answer.promise;
    });
    const view = renderWith(bridge, <Search query="old" />);
    view.rerender(<Search query="new" />);
    await waitFor(() => assert.equal(pending.size, 2));
    await act(async () => pending.get("new")!.resolve(sessions("newest answer")));
    await act(async () => pending.get("old")!.resolve(sessions("stale answer")));
    screen.getByText("newest answer");
    assert.equal(textOf(screen.queryByText("stale answer")), null);
    screen.getByText("idle");
  });

  it("asks again when a listed event arrives and after a reconnect, keeping the answer meanwhile", async () => {
    let answers = 0;
    const bridge = new FakeBridge().handle("sessions/list", () => sessions(`answer ${++answers}`));
    renderWith(bridge, <Search query="" />);
    await screen.findByText("answer 1");
    act(() => bridge.emit("sessions/changed", { cause: "renamed", id: "s0" }));
    await screen.findByText("answer 2");
    act(() => bridge.setState("closed"));
    act(() => bridge.setState("open"));
    await screen.findByText("answer 3");
    assert.equal(bridge.requests("sessions/list").length, 3);
  });

  it("shows why a call failed and keeps the last answer", async () => {
    let fail = false;
    const bridge = new FakeBridge().handle("sessions/list", () => {
      if (fail) throw new Error("the sessions folder is unreadable");
      return sessions("kept");
    });
    renderWith(bridge, <Search query="" />);
    await screen.findByText("kept");
    fail = true;
    act(() => bridge.emit("sessions/changed", { cause: "created", id: "s1" }));
    const alert = await screen.findByRole("alert");
    assert.match(alert.textContent ?? "", /the sessions folder is unreadable/);
    screen.getByText("kept");
  });

  it("calls nothing while disabled, and at once when enabled", async () => {
    const bridge = new FakeBridge().handle("sessions/list", () => sessions("now"));
    const view = renderWith(bridge, <Search query="" enabled={false} />);
    act(() => bridge.emit("sessions/changed", { cause: "created", id: "s1" }));
    screen.getByText("idle");
    assert.equal(bridge.requests("sessions/list").length, 0);
    view.rerender(<Search query="" enabled />);
    await screen.findByText("now");
  });

  it("refuses a request the real bridge refuses, as the real bridge does", async () => {
    const bridge = new FakeBridge().handle("sessions/list", () => sessions("never"));
    renderWith(bridge, <Search query={"x".repeat(501)} />);
    const alert = await screen.findByRole("alert");
    assert.match(alert.textContent ?? "", /invalid payload/);
    assert.equal(bridge.refused.length, 1);
    bridge.refused.length = 0; // seen: cleanup would fail the test on it
  });
});
