/** A turn that failed for want of a model: the remedy in the chat, never the engine's CLI advice. */
import {
  act,
  cleanup,
  FakeBridge,
  fireEvent,
  renderWith,
  screen,
  waitFor,
  within,
} from "../testing/render.tsx";
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { CallResponse, EventPayload } from "../../../main/bridge/contract.ts";
import { ChatView } from "./ChatView.tsx";

afterEach(cleanup);

const CLI_LINE =
  "no model provider configured or running and no model downloaded for the embedded runtime — run `islet models pull qwen3-4b` (Qwen3 4B, 2.5 GB), or start Ollama, LM Studio or llama.cpp server";

const LOCAL: CallResponse<"models/local"> = {
  dir: "/home/me/.islet/models",
  models: [],
  catalog: [
    {
      name: "qwen3-4b",
      title: "Qwen3 4B",
      description: "A capable small model.",
      size: 2.5e9,
      quantization: "Q4_K_M",
      parameters: "4B",
      memoryNeeded: 4e9,
      license: "Apache-2.0",
      url: "https://models.example/qwen3-4b.gguf",
      fit: "fits",
      downloaded: false,
    },
  ],
  recommended: "qwen3-4b",
  totalMemory: 16e9,
  downloads: [],
  catalogError: null,
};

const running = (over: Partial<EventPayload<"models/download">> = {}) => ({
  name: "qwen3-4b",
  title: "Qwen3 4B",
  source: "qwen3-4b",
  state: "running" as const,
  received: 0,
  total: 2.5e9,
  bytesPerSecond: 0,
  secondsLeft: null,
  error: null,
  partial: 0,
  ...over,
});

function engine(remedy: boolean): FakeBridge {
  return new FakeBridge()
    .handle("chat/open", () => ({
      conversationId: "c1",
      agent: "build",
      title: "",
      resumed: false,
    }))
    .handle("chat/history", () => ({ events: [], running: false, seq: 0 }))
    .handle("commands/list", () => ({ commands: [] }))
    .handle("models/list", () => ({ servers: [], current: null, currentError: null }))
    .handle("models/local", () => LOCAL)
    .handle("models/download", ({ name }) => running({ name }))
    .handleStream("chat/send", async (_request, { chunk }) => {
      chunk({ type: "user_message", text: "hello" });
      chunk({
        type: "error",
        errorType: "",
        message: CLI_LINE,
        ...(remedy ? { remedy: "get_model" as const } : {}),
      });
      return {
        status: "error",
        text: "",
        command: null,
        error: { source: "model", title: CLI_LINE },
      };
    });
}

async function sendHello(bridge: FakeBridge, onOpenModels?: () => void) {
  renderWith(
    bridge,
    <ChatView sessionId="c1" onSessionOpened={() => undefined} onOpenModels={onOpenModels} />,
  );
  const box = await screen.findByRole("textbox", { name: "Message" });
  fireEvent.change(box, { target: { value: "hello" } });
  fireEvent.click(screen.getByRole("button", { name: "Send" }));
  const conversation = screen.getByRole("region", { name: "Conversation" });
  return within(await within(conversation).findByRole("alert"));
}

describe("NoModelError", () => {
  it("offers the recommended model's Download in the error, with its progress, and no CLI command", async () => {
    const bridge = engine(true);
    const error = await sendHello(bridge, () => undefined);
    error.getByText("There is no model to chat with yet.");
    assert.doesNotMatch(
      error.getByText(/no model to chat with/).parentElement?.textContent ?? "",
      /islet|`/,
    );
    const download = await error.findByRole("button", { name: "Download Qwen3 4B (2.5 GB)" });
    fireEvent.click(download);
    await waitFor(() =>
      assert.deepEqual(bridge.requests("models/download"), [{ name: "qwen3-4b" }]),
    );
    act(() => bridge.emit("models/download", running({ received: 1.25e9, bytesPerSecond: 25e6 })));
    const bar = await error.findByRole("progressbar", { name: "Downloading Qwen3 4B" });
    assert.equal(bar.getAttribute("aria-valuenow"), "50");
    error.getByRole("button", { name: "Cancel" });
  });

  it("offers another model from the Models view, and Send again", async () => {
    let opened = 0;
    const bridge = engine(true);
    const error = await sendHello(bridge, () => opened++);
    fireEvent.click(error.getByRole("button", { name: "Choose another model…" }));
    assert.equal(opened, 1);
    fireEvent.click(error.getByRole("button", { name: "Send again" }));
    await waitFor(() => assert.equal(bridge.requests("chat/send").length, 2));
  });

  it("an error without a remedy still shows the engine's words and Retry", async () => {
    const error = await sendHello(engine(false));
    error.getByText(/islet models pull/);
    error.getByRole("button", { name: "Retry" });
    assert.equal(error.queryByRole("button", { name: /Download/ }), null);
  });
});
