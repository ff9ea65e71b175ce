// The bridge over Electron IPC end to end under plain Node, with a fake 'electron'
// (testing/fake-electron.ts): the renderer's typed client (renderer/src/bridge/ipc.ts) over the
// real preload, the IPC handlers, the service and a real engine talking to a loopback fake model.
// Streams, cancel, per-window addressing and questions, as in the desktop app.
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { registerHooks } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { AgentEvent } from "../core/events.ts";
import {
  BridgeError,
  CallCancelled,
  type Bridge,
  type ChatOpened,
  type PreloadApi,
  type QuestionAsked,
} from "../bridge/contract.ts";
import { startFakeOpenAI, type FakeServer } from "../providers/testing/index.ts";

const fakeUrl = new URL("./testing/fake-electron.ts", import.meta.url).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === "electron") return { url: fakeUrl, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

const fake = await import("./testing/fake-electron.ts");
await import("./app.ts");
const { trustWebContents } = await import("./security.ts");
const { ipcBridge } = await import("../../renderer/src/bridge/ipc.ts");

type Win = InstanceType<typeof fake.BrowserWindow>;

const writeCall = (file: string) => ({
  toolCalls: [{ name: "Write", arguments: { path: file, content: "x\n" } }],
});

/** Waits by the clock, not by a count of polls: a loaded machine's first model call can be slow. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && !check()) await sleep(10);
  assert.ok(check(), `timed out waiting for ${what}`);
}

describe("bridge over Electron IPC (fake electron, real preload and engine)", () => {
  let home: string;
  let model: FakeServer;
  let page: Bridge;
  let other: Win;

  /** A raw IPC call from the other window (it has no preload of its own here). */
  const fromOther = (channel: string, ...args: unknown[]) =>
    fake.recorded.ipcHandlers.get(channel)!(
      { sender: other.webContents, senderFrame: other.webContents.mainFrame },
      ...args,
    ) as Promise<{ ok: boolean; result?: unknown; cancelled?: boolean }>;
  const sentToOther = (channel: string) =>
    other.webContents.sent.filter(([c, event]) => c === "islet:event" && event === channel);

  before(async () => {
    model = await startFakeOpenAI([]);
    home = await mkdtemp(join(tmpdir(), "islet-ipc-home-"));
    await mkdir(join(home, "config"), { recursive: true });
    await writeFile(
      join(home, "config", "providers.yaml"),
      `default: { provider: fake, model: m }\nproviders:\n  fake: { type: openai-compatible, base_url: ${model.url} }\n`,
    );
    process.env["ISLET_HOME"] = home;
    process.env["ISLET_WORKDIR"] = home;
    fake.probe.userData = join(home, "user-data");
    fake.probe.outcome = { message: { ok: true } };
    fake.emitReady();
    await sleep(0);
    const main = fake.BrowserWindow.all[0] as Win;
    // The page: the real preload exposes window.islet; the renderer's client wraps it.
    fake.renderer.contents = main.webContents;
    await import("../../preload/index.ts");
    page = ipcBridge(fake.recorded.exposed["islet"] as PreloadApi);
    // A second window of ours, without a preload (its calls are made raw).
    other = new fake.BrowserWindow({});
    await other.loadURL("app://islet/index.html");
    trustWebContents(other.webContents as never);
  });

  after(async () => {
    let quit = false;
    fake.app.quit();
    for (let i = 0; i < 200 && !quit; i++) {
      quit = fake.recorded.order.includes("quit");
      await sleep(20);
    }
    await model.close();
    await rm(home, { recursive: true, force: true });
  });

  it("streams a turn's events to the page, then its result", async () => {
    const { conversationId } = await page.call("chat/open", {});
    model.push({ text: ["Hel", "lo"] });
    const chunks: AgentEvent[] = [];
    const result = await page.stream(
      "chat/send",
      { conversationId, text: "hi" },
      { onChunk: (event) => chunks.push(event) },
    );
    assert.deepEqual(result, { status: "done", text: "Hello", command: null, error: null });
    assert.equal(
      chunks
        .filter((e) => e.type === "assistant_delta")
        .map((e) => e.text)
        .join(""),
      "Hello",
    );
    assert.equal(chunks.at(-1)?.type, "done");
  });

  it("asks only the window that owns the conversation; the page's typed answer decides", async () => {
    const opened = await fromOther("islet:chat/open", {});
    assert.equal(opened.ok, true);
    const { conversationId } = await page.call("chat/open", {});
    model.push(writeCall("ipc-allowed.txt"), { text: ["written"] });
    const asked: QuestionAsked[] = [];
    const off = page.on("question/asked", (q) => {
      asked.push(q);
      if (q.question.kind === "approval")
        void page.call("question/answer", { id: q.id, kind: "approval", answer: "allow" });
    });
    try {
      const result = await page.stream(
        "chat/send",
        { conversationId, text: "write it" },
        { onChunk: () => {} },
      );
      assert.equal(result.text, "written");
    } finally {
      off();
    }
    assert.deepEqual(
      asked.map((q) => [q.conversationId, q.question.kind]),
      [[conversationId, "approval"]],
    );
    assert.ok(existsSync(join(home, "ipc-allowed.txt")));
    assert.deepEqual(sentToOther("question/asked"), [], "the other window heard nothing");
  });

  it("aborting the page's signal cancels the stream and stops the turn", async () => {
    const { conversationId } = await page.call("chat/open", {});
    model.push({ text: ["thinking…"], hang: true }, { text: ["after"] });
    const cancel = new AbortController();
    const turn = page.stream(
      "chat/send",
      { conversationId, text: "long" },
      {
        // Once the model is streaming (the prompt's own user_message event comes first).
        onChunk: (e) => {
          if (e.type === "assistant_delta") cancel.abort();
        },
        signal: cancel.signal,
      },
    );
    await assert.rejects(turn, (err) => err instanceof CallCancelled && err.name === "AbortError");
    const next = await page.stream(
      "chat/send",
      { conversationId, text: "again" },
      { onChunk: () => {} },
    );
    assert.equal(next.text, "after");
  });

  it("a menu command (New Chat, Settings…) reaches the main window's page alone", async () => {
    type Item = { label?: string; click?: () => void; submenu?: Item[] };
    const items = (menu: Item[]): Item[] =>
      menu.flatMap((item) => [item, ...items(item.submenu ?? [])]);
    const all = items((fake.recorded.menu ?? []) as Item[]);
    const got: unknown[] = [];
    const off = page.on("app/menu", (payload) => got.push(payload));
    all.find((i) => i.label === "&New Chat")?.click?.();
    all.find((i) => i.label === "&Settings" || i.label === "Settings…")?.click?.();
    await until(() => got.length === 2, "the menu commands");
    assert.deepEqual(got, [{ command: "new-chat" }, { command: "settings" }]);
    assert.equal(sentToOther("app/menu").length, 0, "another window hears nothing");
    off();
  });

  it("a failed call reaches the page as a problem, not just a message", async () => {
    const error = await page.call("chat/stop", { conversationId: "nope" }).catch((e: unknown) => e);
    assert.ok(error instanceof BridgeError);
    assert.equal(error.problem.source, "chat/stop");
    assert.equal(error.problem.suggestion, "open it with chat/open first");
  });

  it("a reloaded page is a new client: the old page's turn is cancelled", async () => {
    const opened = (await fromOther("islet:chat/open", {})).result as ChatOpened;
    model.push({ text: ["endless"], hang: true });
    const turn = fromOther("islet:stream:chat/send", 3, {
      conversationId: opened.conversationId,
      text: "go",
    });
    // The model's own text, not the prompt's user_message: the hanging reply must be taken from
    // the fake model's queue before the page goes, or the next test's request would get it.
    await until(
      () =>
        other.webContents.sent.some(
          ([c, id, chunk]) =>
            c === "islet:chunk" && id === 3 && (chunk as AgentEvent).type === "assistant_delta",
        ),
      "the model's first words",
    );
    await fromOther("islet:hello"); // what the new page's preload sends first
    assert.deepEqual(await turn, { ok: false, cancelled: true });
    const stale = await fromOther("islet:chat/stop", { conversationId: opened.conversationId });
    assert.equal(stale.ok, false, "the new page has not opened that conversation");
  });

  it("a window that closes cancels its streams and withdraws its questions", async () => {
    const opened = (await fromOther("islet:chat/open", {})).result as ChatOpened;
    model.push(writeCall("never.txt"));
    const turn = fromOther("islet:stream:chat/send", 7, {
      conversationId: opened.conversationId,
      text: "write never.txt",
    });
    await until(() => sentToOther("question/asked").length > 0, "the question");
    assert.ok(other.webContents.sent.some(([c, id]) => c === "islet:chunk" && id === 7));
    other.webContents.destroy();
    assert.deepEqual(await turn, { ok: false, cancelled: true });
    assert.ok(!existsSync(join(home, "never.txt")));
  });
});
