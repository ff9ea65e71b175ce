/** The model picker's data (a conversation's or the default), fresh on model settings changes. */
import { act, cleanup, FakeBridge, renderWith, screen, waitFor } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { useModels } from "./useModels.ts";

afterEach(cleanup);

function engine() {
  let lists = 0;
  return new FakeBridge().handle("models/list", () => ({
    servers: [],
    current: { provider: "local", model: `answer ${++lists}` },
    currentError: null,
  }));
}

function Current({ conversationId }: { conversationId: string | null }) {
  const models = useModels(conversationId);
  return <p>{models.data?.current?.model ?? "none"}</p>;
}

describe("useModels", () => {
  it("asks for the conversation's models, or the default ones without a conversation", async () => {
    const bridge = engine();
    const view = renderWith(bridge, <Current conversationId={null} />);
    await screen.findByText("answer 1");
    view.rerender(<Current conversationId="c1" />);
    await screen.findByText("answer 2");
    assert.deepEqual(bridge.requests("models/list"), [{}, { conversationId: "c1" }]);
  });

  it("lists again when providers or models change, not for other settings", async () => {
    const bridge = engine();
    renderWith(bridge, <Current conversationId={null} />);
    await screen.findByText("answer 1");
    act(() => bridge.emit("settings/changed", { section: "appearance" }));
    act(() => bridge.emit("settings/changed", { section: "approvals" }));
    assert.equal(bridge.requests("models/list").length, 1);
    act(() => bridge.emit("settings/changed", { section: "providers" }));
    await screen.findByText("answer 2");
    act(() => bridge.emit("settings/changed", { section: "models" }));
    await screen.findByText("answer 3");
    await waitFor(() => assert.equal(bridge.requests("models/list").length, 3));
  });
});
