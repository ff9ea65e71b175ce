/** The Catalog tab's data: listed at once, again on catalog/changed; refresh(true) asks anew. */
import { act, cleanup, FakeBridge, fireEvent, renderWith, screen } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { useCatalog } from "./useCatalog.ts";

afterEach(cleanup);

function engine() {
  let lists = 0;
  return new FakeBridge().handle("catalog/list", () => ({
    catalogs: [],
    packs: [],
    tags: [],
    others: [],
    file: `settings ${++lists}`,
  }));
}

function Catalog() {
  const catalog = useCatalog();
  return (
    <div>
      <p>{catalog.view?.file ?? "nothing yet"}</p>
      <button type="button" onClick={() => catalog.refresh()}>
        Again
      </button>
      <button type="button" onClick={() => catalog.refresh(true)}>
        Fetch catalogs
      </button>
    </div>
  );
}

describe("useCatalog", () => {
  it("lists the catalogs, again when they change, and fetches URL catalogs on request", async () => {
    const bridge = engine();
    renderWith(bridge, <Catalog />);
    await screen.findByText("settings 1");
    act(() => bridge.emit("catalog/changed", { cause: "packs" }));
    await screen.findByText("settings 2");
    fireEvent.click(screen.getByRole("button", { name: "Fetch catalogs" }));
    await screen.findByText("settings 3");
    fireEvent.click(screen.getByRole("button", { name: "Again" }));
    await screen.findByText("settings 4");
    assert.deepEqual(bridge.requests("catalog/list"), [
      undefined,
      undefined,
      { refresh: true },
      undefined,
    ]);
  });
});
