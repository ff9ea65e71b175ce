/**
 * The engine's warnings in the app: two show whole; more fold behind one line (the newest shows)
 * that opens them all; Dismiss all clears them, and a dismissed text does not come back.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { act, cleanup, FakeBridge, fireEvent, renderWith, screen } from "../testing/render.tsx";
import { EngineWarnings } from "./EngineWarnings.tsx";

afterEach(cleanup);

const warn = (bridge: FakeBridge, n: number) =>
  act(() => bridge.emit("engine/warning", { source: "packs", title: `warning ${n}` }));
const shown = () => screen.queryAllByRole("listitem").map((li) => li.textContent);

describe("EngineWarnings", () => {
  it("shows two whole, folds more behind one line that opens them all", () => {
    const bridge = new FakeBridge();
    renderWith(bridge, <EngineWarnings />);
    warn(bridge, 1);
    warn(bridge, 2);
    assert.deepEqual(shown(), [
      "Engine warning: packs: warning 1",
      "Engine warning: packs: warning 2",
    ]);
    assert.equal(screen.queryByRole("button", { name: /more engine warnings/ }), null);
    for (const n of [3, 4, 5, 6, 7]) warn(bridge, n);
    assert.deepEqual(shown(), ["Engine warning: packs: warning 7"]);
    const more = screen.getByRole("button", { name: "6 more engine warnings" });
    assert.equal(more.getAttribute("aria-expanded"), "false");
    fireEvent.click(more);
    assert.equal(shown().length, 7, "none was dropped");
    assert.equal(
      screen
        .getByRole("button", { name: "Show only the newest warning" })
        .getAttribute("aria-expanded"),
      "true",
    );
  });

  it("Dismiss all clears them, and a dismissed warning is not shown again", () => {
    const bridge = new FakeBridge();
    renderWith(bridge, <EngineWarnings />);
    for (const n of [1, 2, 3]) warn(bridge, n);
    fireEvent.click(screen.getByRole("button", { name: "Dismiss all 3" }));
    assert.deepEqual(shown(), []);
    warn(bridge, 2);
    warn(bridge, 4);
    assert.deepEqual(shown(), ["Engine warning: packs: warning 4"]);
  });
});
