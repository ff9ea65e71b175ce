/**
 * Starting a chat: the starter prompts fill the composer (never send), and the slash-command list
 * on a plain text box (no combobox role on a textarea), hidden by Escape until the next key.
 */
import {
  cleanup,
  FakeBridge,
  fireEvent,
  renderWith,
  screen,
  textOf,
  waitFor,
  within,
} from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { ChatView } from "./ChatView.tsx";
import { STARTERS } from "./StarterPrompts.tsx";

afterEach(cleanup);

const command = (name: string) => ({
  name,
  description: `the ${name} command`,
  hints: null,
  source: "builtin",
  kind: "command" as const,
  status: "ok" as const,
  error: null,
});

function engine(): FakeBridge {
  return new FakeBridge()
    .handle("chat/open", () => ({
      conversationId: "c-new",
      agent: "build",
      title: "",
      resumed: false,
    }))
    .handle("chat/history", () => ({ events: [], running: false, seq: 0 }))
    .handle("commands/list", () => ({
      commands: [command("compact"), command("clear"), command("agent")],
    }))
    .handle("app/info", () => ({
      name: "Islet",
      version: "0.1.0",
      host: "browser",
      versions: { node: "24", electron: null, chrome: null },
      platform: "linux",
      workdir: "/work/project",
      home: "/home/me",
    }))
    .handle("models/list", () => ({
      servers: [],
      current: { provider: "local", model: "m" },
      currentError: null,
    }));
}

const box = () => screen.getByRole("textbox", { name: "Message" }) as HTMLTextAreaElement;
const list = () => screen.queryByRole("listbox", { name: "Slash commands" });
const type = (text: string) => fireEvent.change(box(), { target: { value: text } });

describe("a new chat", () => {
  it("offers starter prompts that fill the message box without sending", async () => {
    const bridge = engine();
    renderWith(bridge, <ChatView sessionId={null} onSessionOpened={() => undefined} />);
    const starters = await screen.findByRole("list", { name: "Starter prompts" });
    const buttons = within(starters).getAllByRole("button");
    assert.equal(buttons.length >= 3 && buttons.length <= 4, true, "3 or 4 starters");
    fireEvent.click(within(starters).getByRole("button", { name: new RegExp(STARTERS[1].label) }));
    await waitFor(() => assert.equal(box().value, STARTERS[1].prompt));
    assert.equal(document.activeElement === box(), true, "the focus is in the message box");
    assert.deepEqual(bridge.requests("chat/send"), [], "nothing was sent");
  });

  it("the message box is a text box (in a combobox) pointing at the slash list it controls", async () => {
    renderWith(engine(), <ChatView sessionId={null} onSessionOpened={() => undefined} />);
    await screen.findByRole("list", { name: "Starter prompts" });
    assert.equal(box().getAttribute("role"), null);
    type("/c");
    const menu = await screen.findByRole("listbox", { name: "Slash commands" });
    assert.equal(box().getAttribute("aria-controls"), menu.id);
    const active = box().getAttribute("aria-activedescendant") ?? "";
    assert.equal(textOf(document.getElementById(active))?.startsWith("/compact"), true);
    assert.equal(box().getAttribute("aria-autocomplete"), "list");
    // The combobox is the container (ARIA 1.1), which says whether the list is open.
    const combo = screen.getByRole("combobox", { name: "Message" });
    assert.equal(combo.getAttribute("aria-expanded"), "true");
    fireEvent.keyDown(box(), { key: "Escape" });
    assert.equal(combo.getAttribute("aria-expanded"), "false");
  });

  it("Escape hides the slash list; the next key that still matches brings it back", async () => {
    renderWith(engine(), <ChatView sessionId={null} onSessionOpened={() => undefined} />);
    await screen.findByRole("list", { name: "Starter prompts" });
    type("/c");
    await screen.findByRole("listbox", { name: "Slash commands" });
    fireEvent.keyDown(box(), { key: "Escape" });
    assert.equal(list(), null);
    assert.equal(box().getAttribute("aria-controls"), null);
    type("/cl");
    assert.equal(textOf(list())?.includes("/clear"), true);
    fireEvent.keyDown(box(), { key: "Escape" });
    assert.equal(list(), null);
    fireEvent.keyDown(box(), { key: " ", ctrlKey: true });
    assert.equal(textOf(list())?.includes("/clear"), true, "Ctrl+Space asks for it again");
  });
});
