/**
 * The chats list by keyboard: one Tab stop whose rows arrows move between, → to a row's actions,
 * and F2 that puts the focus in the name field at once, wherever in the row the focus was.
 */
import { cleanup, FakeBridge, fireEvent, renderWith, screen, waitFor } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { SessionsPanel } from "./SessionsPanel.tsx";

afterEach(cleanup);

const session = (id: string, title: string) => ({
  id,
  title,
  createdAt: new Date().toISOString(),
  updatedAt: new Date().toISOString(),
  messageCount: 2,
  agent: "build",
  provider: "local",
  model: "m",
  open: false,
  match: null,
});

function engine() {
  return new FakeBridge()
    .handle("sessions/list", () => ({
      sessions: [session("s1", "First"), session("s2", "Second"), session("s3", "Third")],
    }))
    .handle("sessions/rename", ({ id, title }) => ({ id, title }));
}

const row = (title: string) => screen.getByRole("button", { name: new RegExp(`^${title}`) });
const focused = () =>
  document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.textContent ?? "";

async function shown(activeId: string | null = null) {
  const bridge = engine();
  renderWith(
    bridge,
    <SessionsPanel activeId={activeId} onOpen={() => undefined} onNewChat={() => undefined} />,
  );
  await screen.findByText("Third");
  return bridge;
}

describe("the chats list by keyboard", () => {
  it("is one Tab stop: the open session's row, the others reached with the arrows", async () => {
    await shown("s2");
    const tabbable = ["First", "Second", "Third"].filter((t) => row(t).tabIndex === 0);
    assert.deepEqual(tabbable, ["Second"]);
    const actions = screen.getAllByRole("button", { name: /^Actions for/ });
    assert.deepEqual(
      actions.map((a) => a.tabIndex),
      [-1, -1, -1],
    );
    row("Second").focus();
    fireEvent.keyDown(row("Second"), { key: "ArrowDown" });
    assert.equal(focused().startsWith("Third"), true);
    // The Tab stop follows the focus.
    await waitFor(() => assert.equal(row("Third").tabIndex, 0));
    assert.equal(row("Second").tabIndex, -1);
    fireEvent.keyDown(row("Third"), { key: "Home" });
    assert.equal(focused().startsWith("First"), true);
    fireEvent.keyDown(row("First"), { key: "ArrowRight" });
    assert.equal(focused(), "Actions for First");
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "ArrowLeft" });
    assert.equal(focused().startsWith("First"), true);
  });

  it("F2 on a row's Actions button opens the name field with the focus already in it", async () => {
    const bridge = await shown();
    fireEvent.keyDown(row("Second"), { key: "ArrowRight" });
    screen.getByRole("button", { name: "Actions for Second" }).focus();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: "F2" });
    // Synchronously, before any next key: nothing typed right after F2 is lost.
    const field = screen.getByRole("textbox", { name: "New name for Second" }) as HTMLInputElement;
    assert.equal(document.activeElement === field, true);
    assert.equal(field.selectionStart, 0);
    assert.equal(field.selectionEnd, "Second".length, "the current name is selected");
    fireEvent.change(field, { target: { value: "Renamed" } });
    fireEvent.keyDown(field, { key: "Enter" });
    await waitFor(() =>
      assert.deepEqual(bridge.requests("sessions/rename"), [{ id: "s2", title: "Renamed" }]),
    );
  });

  it("F2 on the row itself does the same", async () => {
    await shown();
    row("Third").focus();
    fireEvent.keyDown(row("Third"), { key: "F2" });
    const field = screen.getByRole("textbox", { name: "New name for Third" });
    assert.equal(document.activeElement === field, true);
  });
});
