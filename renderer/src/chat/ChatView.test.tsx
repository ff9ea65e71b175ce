/** The chat screen's transcript against the fake transport: open, follow, send, approve. */
import {
  act,
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
import type { AgentEvent } from "../../../main/bridge/contract.ts";
import { ChatView } from "./ChatView.tsx";

afterEach(cleanup);

const SAVED: AgentEvent[] = [
  { type: "user_message", text: "What does main.ts do?" },
  { type: "assistant", text: "It **starts** the app." },
];

/** An engine with one saved session, s1, that opens as conversation c1. */
function engine(): FakeBridge {
  return new FakeBridge()
    .handle("chat/open", (r) => ({
      conversationId: r.sessionId ?? "c-new",
      agent: "build",
      title: r.sessionId ? "Main entry" : "",
      resumed: r.sessionId !== undefined,
    }))
    .handle("chat/history", () => ({ events: SAVED, running: false, seq: 2 }))
    .handle("commands/list", () => ({ commands: [] }))
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

const conversation = () => screen.getByRole("region", { name: "Conversation" });

function type(text: string): void {
  fireEvent.change(screen.getByRole("textbox", { name: "Message" }), {
    target: { value: text },
  });
}

describe("ChatView", () => {
  it("opens a saved session and shows its title, prompt and Markdown answer", async () => {
    const bridge = engine();
    renderWith(bridge, <ChatView sessionId="s1" onSessionOpened={() => undefined} />);
    await screen.findByRole("heading", { level: 1, name: "Main entry" });
    const transcript = conversation();
    await within(transcript).findByText("What does main.ts do?");
    assert.equal(within(transcript).getByText("starts").tagName, "STRONG");
    assert.deepEqual(bridge.requests("chat/open"), [{ sessionId: "s1" }]);
    assert.deepEqual(bridge.requests("chat/history"), [{ conversationId: "s1" }]);
  });

  it("shows another window's turn as its events arrive, once each", async () => {
    const bridge = engine();
    renderWith(bridge, <ChatView sessionId="s1" onSessionOpened={() => undefined} />);
    const transcript = conversation();
    await within(transcript).findByText("What does main.ts do?");
    act(() => {
      // Already in the history (seq 2): not shown twice.
      bridge.emit("chat/event", {
        conversationId: "s1",
        seq: 2,
        event: { type: "assistant", text: "It **starts** the app." },
      });
      bridge.emit("chat/event", {
        conversationId: "s1",
        seq: 3,
        event: { type: "user_message", text: "And the tests?" },
      });
      bridge.emit("chat/event", {
        conversationId: "s1",
        seq: 4,
        event: { type: "assistant", text: "Run `npm test`." },
      });
      // A plugin's notice: its escape and bidi override shown as markers, not obeyed.
      bridge.emit("chat/event", {
        conversationId: "s1",
        seq: 5,
        event: { type: "notice", source: "guard", text: "all clear\x1b[2K\u202Edenied" },
      });
      // Another conversation's: not this view's.
      bridge.emit("chat/event", {
        conversationId: "other",
        seq: 6,
        event: { type: "user_message", text: "Not here" },
      });
    });
    await within(transcript).findByText("And the tests?");
    await within(transcript).findByText("npm test");
    assert.equal(within(transcript).getAllByText("starts").length, 1);
    assert.equal(
      textOf(within(transcript).getByRole("note").querySelector("span:last-child")),
      "all clear⟨ESC⟩[2K⟨U+202E⟩denied",
    );
    assert.equal(textOf(within(transcript).queryByText("Not here")), null);
  });

  it("sends a prompt to the open conversation and streams the answer in", async () => {
    const bridge = engine().handleStream("chat/send", async (_request, { chunk }) => {
      chunk({ type: "user_message", text: "Explain the build" });
      chunk({ type: "assistant_delta", text: "It uses " });
      chunk({ type: "assistant_delta", text: "electron-vite." });
      chunk({ type: "assistant", text: "It uses *electron-vite*." });
      return { status: "done", text: "It uses *electron-vite*.", command: null, error: null };
    });
    renderWith(bridge, <ChatView sessionId="s1" onSessionOpened={() => undefined} />);
    const transcript = conversation();
    await within(transcript).findByText("What does main.ts do?");
    type("  Explain the build ");
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await within(transcript).findByText("Explain the build");
    const answer = await within(transcript).findByText("electron-vite");
    assert.equal(answer.tagName, "EM");
    assert.deepEqual(bridge.requests("chat/send"), [
      { conversationId: "s1", text: "Explain the build" },
    ]);
    // The turn ended: the composer takes the next prompt.
    await screen.findByRole("button", { name: "Send" });
  });

  it("a new chat opens its conversation on the first prompt and reports its id", async () => {
    const opened: string[] = [];
    const bridge = engine().handleStream("chat/send", async () => ({
      status: "done",
      text: "",
      command: null,
      error: null,
    }));
    renderWith(bridge, <ChatView sessionId={null} onSessionOpened={(id) => opened.push(id)} />);
    await screen.findByText("What shall we work on?");
    await screen.findByText("/work/project");
    type("Hello");
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await waitFor(() => assert.deepEqual(opened, ["c-new"]));
    assert.deepEqual(bridge.requests("chat/open"), [{}]);
    assert.deepEqual(bridge.requests("chat/send"), [{ conversationId: "c-new", text: "Hello" }]);
  });

  it("asks before a tool runs and sends the person's answer", async () => {
    const turn = Promise.withResolvers<void>();
    const bridge = engine()
      .handle("question/answer", () => undefined)
      .handleStream("chat/send", async (_request, { chunk }) => {
        chunk({ type: "user_message", text: "Clean up" });
        chunk({ type: "tool_call", id: "t1", name: "Bash", arguments: { command: "rm -r out" } });
        await turn.promise;
        return { status: "stopped", text: "", command: null, error: null };
      });
    renderWith(bridge, <ChatView sessionId="s1" onSessionOpened={() => undefined} />);
    await within(conversation()).findByText("What does main.ts do?");
    type("Clean up");
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    await within(conversation()).findByText("Clean up");
    act(() =>
      bridge.emit("question/asked", {
        id: "q1",
        conversationId: "s1",
        question: {
          kind: "approval",
          tool: "Bash",
          arguments: { command: "rm -r out" },
          workdir: "/work/project",
        },
      }),
    );
    const ask = await screen.findByRole("group", { name: "Allow Bash?" });
    fireEvent.click(within(ask).getByRole("button", { name: "Deny" }));
    await waitFor(() =>
      assert.deepEqual(bridge.requests("question/answer"), [
        { id: "q1", kind: "approval", answer: "deny" },
      ]),
    );
    assert.equal(textOf(screen.queryByRole("group", { name: "Allow Bash?" })), null);
    await act(async () => turn.resolve());
  });

  it("an approval that comes before the page knows its conversation still shows; another conversation's does not", async () => {
    const approval = (id: string, conversationId: string) => ({
      id,
      conversationId,
      question: {
        kind: "approval" as const,
        tool: "Bash",
        arguments: { command: "ls" },
        workdir: "/work/project",
      },
    });
    const turn = Promise.withResolvers<void>();
    const bridge: FakeBridge = engine()
      .handle("chat/open", () => {
        // On a busy machine the engine's events can come before the page has taken in the reply.
        bridge.emit("question/asked", approval("q-other", "c-other"));
        bridge.emit("question/asked", approval("q1", "c-new"));
        return { conversationId: "c-new", agent: "build", title: "", resumed: false };
      })
      .handleStream("chat/send", async (_request, { chunk }) => {
        chunk({ type: "user_message", text: "List it" });
        chunk({ type: "tool_call", id: "t1", name: "Bash", arguments: { command: "ls" } });
        await turn.promise;
        return { status: "stopped", text: "", command: null, error: null };
      });
    renderWith(bridge, <ChatView sessionId={null} onSessionOpened={() => undefined} />);
    await screen.findByText("What shall we work on?");
    type("List it");
    fireEvent.click(screen.getByRole("button", { name: "Send" }));
    const card = await screen.findByRole("article", { name: "Tool Bash" });
    await within(card).findByRole("group", { name: "Allow Bash?" });
    assert.equal(screen.getAllByRole("group", { name: "Allow Bash?" }).length, 1);
    await act(async () => turn.resolve());
  });

  it("says why a session could not be opened", async () => {
    const bridge = engine().handle("chat/open", () => {
      throw new Error("session s1 not found");
    });
    renderWith(bridge, <ChatView sessionId="s1" onSessionOpened={() => undefined} />);
    const alert = await screen.findByRole("alert");
    assert.match(alert.textContent ?? "", /This session could not be opened/);
    assert.match(alert.textContent ?? "", /session s1 not found/);
    assert.equal(screen.getByRole("textbox", { name: "Message" }).hasAttribute("disabled"), true);
  });
});
