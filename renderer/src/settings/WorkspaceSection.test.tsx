/** Settings → Workspace: the trust button is the page's call to action only when it matters. */
import { cleanup, FakeBridge, renderWith, screen } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { WorkspaceSection } from "./WorkspaceSection.tsx";

afterEach(cleanup);

function engine(trusted: boolean, asks: string[]) {
  return new FakeBridge().handle("trust/get", () => ({
    folder: "/work/project",
    trusted,
    why: trusted ? "You trusted it." : "Not trusted yet.",
    asks,
    changeable: true,
  }));
}

const primary = (button: HTMLElement) => button.classList.contains("button-primary");

describe("Settings → Workspace trust button", () => {
  it("is primary while trusting would bring in what is held back", async () => {
    renderWith(engine(false, ["2 hooks", "1 MCP server"]), <WorkspaceSection />);
    const button = await screen.findByRole("button", { name: "Trust this folder…" });
    assert.equal(primary(button), true);
  });

  it("is secondary when nothing is held back: trusting would change nothing", async () => {
    renderWith(engine(false, []), <WorkspaceSection />);
    const button = await screen.findByRole("button", { name: "Trust this folder…" });
    assert.equal(primary(button), false);
    screen.getByText("Nothing: its .islet/ asks for nothing more.");
  });

  it("Stop trusting is never primary", async () => {
    renderWith(engine(true, ["2 hooks"]), <WorkspaceSection />);
    const button = await screen.findByRole("button", { name: "Stop trusting" });
    assert.equal(primary(button), false);
  });
});
