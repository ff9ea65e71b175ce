/**
 * The install-link dialog against a fake bridge: a link (the app's event, or the page's fragment)
 * is checked by the engine and shown whole; nothing is installed without Download and review, and
 * then only through `packs/install` marked as a link's; a second link cannot replace the one shown;
 * a refused link is its one line.
 */
import {
  act,
  cleanup,
  FakeBridge,
  fireEvent,
  renderWith,
  screen,
  textOf,
  waitFor,
} from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { InstallLinkDialog } from "./InstallLinkDialog.tsx";

afterEach(cleanup);

const LINK = { source: "https://git.example.com/tools.git", ref: "v2", subpath: "packs/lint" };

function engine() {
  return new FakeBridge()
    .handle("packs/checkLink", ({ query }) =>
      query.startsWith("source=evil")
        ? { link: null, refused: 'source: "evil" is not a git URL a link can name' }
        : query.startsWith("source=other")
          ? { link: { source: "https://github.com/other/x.git" }, refused: null }
          : { link: LINK, refused: null },
    )
    .handle("packs/install", ({ operation }) => ({
      operation: operation ?? "op",
      status: "cancelled",
      pack: null,
      reports: [],
    }));
}

const dialogText = () => textOf(document.querySelector("dialog"));

describe("InstallLinkDialog", () => {
  it("shows what a link asks for, says a link opened Islet, and Cancel installs nothing", async () => {
    const bridge = engine();
    renderWith(bridge, <InstallLinkDialog onShowPlugins={() => {}} />);
    act(() => bridge.emit("app/installLink", { query: "source=x" }));
    await screen.findByText("Install plugins from a link?");
    for (const part of [
      "A link opened Islet",
      LINK.source,
      "v2",
      "packs/lint",
      "Nothing has been downloaded",
    ])
      assert.ok(dialogText()?.includes(part), part);
    // The text is there before the dialog is shown (showModal runs after the render).
    fireEvent.click(await screen.findByRole("button", { name: "Cancel" }));
    await waitFor(() => assert.equal(screen.queryByText("Install plugins from a link?"), null));
    assert.deepEqual(bridge.requests("packs/install"), []);
  });

  it("a second link while one is shown does not replace it", async () => {
    const bridge = engine();
    renderWith(bridge, <InstallLinkDialog onShowPlugins={() => {}} />);
    act(() => bridge.emit("app/installLink", { query: "source=x" }));
    await screen.findByText(LINK.source);
    act(() => bridge.emit("app/installLink", { query: "source=other" }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(bridge.requests("packs/checkLink").length, 1);
    assert.ok(!dialogText()?.includes("other"));
  });

  it("Download and review installs through packs/install marked as a link's, with its values", async () => {
    const bridge = engine();
    renderWith(bridge, <InstallLinkDialog onShowPlugins={() => {}} />);
    act(() => bridge.emit("app/installLink", { query: "source=x" }));
    fireEvent.click(await screen.findByRole("button", { name: "Download and review" }));
    await screen.findByText("Cancelled — nothing was installed.");
    const [request] = bridge.requests("packs/install");
    assert.deepEqual(
      { ...request, operation: undefined },
      { ...LINK, scope: "global", via: "link", operation: undefined },
    );
  });

  it("a refused link is one line, and the page's #install? fragment is read once and removed", async () => {
    window.history.replaceState(null, "", "/?token=t#install?source=evil");
    const bridge = engine();
    renderWith(bridge, <InstallLinkDialog onShowPlugins={() => {}} />);
    await screen.findByText("This link was not opened");
    assert.ok(dialogText()?.includes('source: "evil" is not a git URL a link can name'));
    assert.deepEqual(bridge.requests("packs/checkLink"), [{ query: "source=evil" }]);
    assert.equal(window.location.hash, "");
    assert.equal(window.location.search, "?token=t");
  });
});
