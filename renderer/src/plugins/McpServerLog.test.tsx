/** An MCP server's Log disclosure: read when opened and when the server's status changes. */
import { cleanup, FakeBridge, fireEvent, renderWith, screen, waitFor } from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { McpServerLog } from "./McpServerLog.tsx";

afterEach(cleanup);

function engine() {
  let reads = 0;
  return new FakeBridge().handle("mcp/log", ({ name }) => ({
    lines: [`${name}: read ${++reads}`],
  }));
}

/** Opens or closes the disclosure as a click on its summary does. */
function toggle(open: boolean): void {
  const details = screen.getByText("Log").closest("details")!;
  details.open = open;
  fireEvent(details, new Event("toggle"));
}

const reads = (bridge: FakeBridge) => bridge.requests("mcp/log").length;

describe("McpServerLog", () => {
  it("reads nothing until opened, then the server's log", async () => {
    const bridge = engine();
    renderWith(bridge, <McpServerLog name="files" status="running" restarts={0} />);
    assert.equal(reads(bridge), 0);
    toggle(true);
    const log = await screen.findByRole("log", { name: "Log of files" });
    assert.equal(log.textContent, "files: read 1");
    assert.deepEqual(bridge.requests("mcp/log"), [{ name: "files" }]);
  });

  it("reads again when the status or restarts change while open, and on Refresh", async () => {
    const bridge = engine();
    const view = renderWith(bridge, <McpServerLog name="files" status="running" restarts={0} />);
    toggle(true);
    await screen.findByText("files: read 1");
    view.rerender(<McpServerLog name="files" status="running" restarts={0} />);
    view.rerender(<McpServerLog name="files" status="failed" restarts={0} />);
    await screen.findByText("files: read 2");
    view.rerender(<McpServerLog name="files" status="failed" restarts={1} />);
    await screen.findByText("files: read 3");
    fireEvent.click(screen.getByRole("button", { name: "Refresh the log of files" }));
    await screen.findByText("files: read 4");
    assert.equal(reads(bridge), 4);
  });

  it("reads nothing while closed, whatever changes, and again when reopened", async () => {
    const bridge = engine();
    const view = renderWith(bridge, <McpServerLog name="files" status="running" restarts={0} />);
    toggle(true);
    await screen.findByText("files: read 1");
    toggle(false);
    view.rerender(<McpServerLog name="files" status="failed" restarts={2} />);
    assert.equal(reads(bridge), 1);
    toggle(true);
    await screen.findByText("files: read 2");
    await waitFor(() => assert.equal(reads(bridge), 2));
  });
});
