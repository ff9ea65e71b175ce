/**
 * The sessions column and the model picker in Chromium against a real `islet serve` and a
 * loopback fake Ollama: sessions created beforehand through the bridge are listed, searched
 * (message text too), opened, renamed (F2), exported as a download and deleted, from the
 * keyboard; the picker lists the fake server's models and switching sets the conversation's
 * model; axe finds nothing serious in light or dark. With ISLET_SCREENSHOTS=DIR the chat screen
 * is saved as DIR/sessions-light.png and sessions-dark.png.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { startFakeOllama, type FakeServer } from "../main/providers/testing/index.ts";
import {
  BUILT_PAGE,
  CHROMIUM_ARGS,
  expectText,
  findChromium,
  startServe,
  type Serve,
} from "./support/browser.ts";
import { serveOnly } from "./support/target.ts";
import { seriousViolations, watchedPage } from "./support/page.ts";
import { bridgeCall, createSessions, writeHome } from "./support/sessions.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];
const browserBinary = findChromium();
const skip = serveOnly(
  "creates its sessions through islet serve's WebSocket, and opens a second server",
);

describe("sessions column and model picker", { skip, timeout: 90_000 }, () => {
  let dir: string;
  let model: FakeServer;
  let serve: Serve;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let bananas: string;
  let apples: string;

  before(async () => {
    assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
    dir = await mkdtemp(path.join(tmpdir(), "islet-e2e-sessions-"));
    model = await startFakeOllama(
      [{ text: ["Bananas are yellow."] }, { text: ["Apples grow on a kiwi-free tree."] }],
      { models: [{ name: "small:1b" }, { name: "big:70b" }] },
    );
    const home = path.join(dir, "home");
    await writeHome(home, model.url);
    [serve, browser] = await Promise.all([
      startServe(["--home", home, "--workdir", dir]),
      chromium.launch({
        executablePath: (browserBinary as { path: string }).path,
        args: CHROMIUM_ARGS,
      }),
    ]);
    [bananas, apples] = await createSessions(serve, ["Tell me about bananas", "And apples?"]);
    ({ page, problems } = await watchedPage(browser, { acceptDownloads: true }));
    await page.goto(serve.url);
    await page.getByRole("button", { name: "Chat", exact: true }).click();
    await page.getByRole("navigation", { name: "Chats" }).waitFor({ timeout: 20_000 });
  });

  after(async () => {
    await browser?.close();
    await serve?.stop();
    await model?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const panel = () => page.getByRole("navigation", { name: "Chats" });
  const search = () => panel().getByRole("searchbox", { name: "Search chats" });

  it("lists the saved sessions, newest first, with when and which model", async () => {
    await expectText(panel(), [/today/i, "And apples?", "Tell me about bananas", "small:1b"]);
    const titles = await panel().locator(".session-title").allInnerTexts();
    assert.deepEqual(titles, ["And apples?", "Tell me about bananas"]);
  });

  it("searches titles and message text", async () => {
    await search().fill("kiwi");
    await expectText(panel(), ["And apples?", "kiwi-free tree"]);
    assert.deepEqual(await panel().locator(".session-title").allInnerTexts(), ["And apples?"]);
    await search().fill("no such words");
    await expectText(panel(), "No chat mentions");
    await search().press("Escape");
    await expectText(panel(), ["And apples?", "Tell me about bananas"]);
  });

  it("opens, renames (F2) and exports from the keyboard", async () => {
    await search().focus();
    await page.keyboard.press("ArrowDown"); // the newest
    await page.keyboard.press("ArrowDown"); // bananas
    await page.keyboard.press("Enter");
    await expectText(page.locator("#chat-title"), "Tell me about bananas");
    await page.keyboard.press("F2");
    const input = panel().getByRole("textbox", { name: /New name for/ });
    await input.fill("Fruit talk");
    await page.keyboard.press("Enter");
    await expectText(panel(), "Fruit talk");
    const saved = (await bridgeCall(serve, "sessions/list", {})) as {
      sessions: { id: string; title: string }[];
    };
    assert.equal(saved.sessions.find((s) => s.id === bananas)?.title, "Fruit talk");

    await panel().getByRole("button", { name: "Actions for Fruit talk" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("menuitem", { name: "Export as JSON" }).waitFor();
    await page.keyboard.press("ArrowDown"); // Export as Markdown
    const download = page.waitForEvent("download");
    await page.keyboard.press("Enter");
    const file = await download;
    assert.equal(file.suggestedFilename(), `fruit-talk-${bananas}.md`);
    const text = readFileSync((await file.path()) ?? "", "utf8");
    assert.match(text, /Tell me about bananas/);
    assert.match(text, /Bananas are yellow\./);
  });

  it("the model picker lists the fake server's models; switching sets the chat's model", async () => {
    const picker = page.getByRole("combobox", { name: "Model for this chat" });
    await expectText(picker, ["small:1b", "big:70b"]);
    assert.equal(await picker.inputValue(), JSON.stringify(["local", "small:1b"]));
    await picker.selectOption({ label: "big:70b" });
    const deadline = Date.now() + 5000;
    let current: unknown;
    while (Date.now() < deadline) {
      const listed = (await bridgeCall(
        serve,
        "models/list",
        { conversationId: bananas },
        bananas,
      )) as {
        current: unknown;
      };
      current = listed.current;
      if (JSON.stringify(current) === JSON.stringify({ provider: "local", model: "big:70b" }))
        break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.deepEqual(current, { provider: "local", model: "big:70b" });
  });

  it("has no serious or critical accessibility problems in light or dark (axe-core)", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      assert.deepEqual(await seriousViolations(page), [], colorScheme);
      if (SHOTS) {
        await mkdir(SHOTS, { recursive: true });
        await page.screenshot({ path: path.join(SHOTS, `sessions-${colorScheme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("deletes the open session after a confirmation; the chat goes back to a new one", async () => {
    await panel().locator(".session-open", { hasText: "Fruit talk" }).focus();
    await page.keyboard.press("Delete");
    const confirm = panel().getByRole("group", { name: "Delete Fruit talk?" });
    await expectText(confirm, "This cannot be undone");
    await confirm.getByRole("button", { name: "Delete" }).click();
    await expectText(page.locator("#chat-title"), "New chat");
    await page.waitForFunction(() => document.querySelectorAll(".session-title").length === 1);
    assert.deepEqual(await panel().locator(".session-title").allInnerTexts(), ["And apples?"]);
    const left = (await bridgeCall(serve, "sessions/list", {})) as { sessions: { id: string }[] };
    assert.deepEqual(
      left.sessions.map((s) => s.id),
      [apples],
    );
  });

  it("met no console error, CSP violation or outside request", () => {
    assert.deepEqual(problems, []);
  });

  it("with no model anywhere, the picker says how to start a local server", async () => {
    const emptyHome = path.join(dir, "empty-home");
    await mkdir(emptyHome, { recursive: true });
    const empty = await startServe(["--home", emptyHome, "--workdir", dir]);
    try {
      const watched = await watchedPage(browser);
      await watched.page.goto(empty.url);
      await watched.page.getByRole("button", { name: "Chat", exact: true }).click();
      const button = watched.page.getByRole("button", { name: "No model available" });
      await button.click();
      const help = watched.page.getByRole("region", { name: "How to get a model" });
      await expectText(help, [
        "ollama serve",
        "LM Studio",
        "llama-server -m model.gguf",
        "Settings",
      ]);
      assert.deepEqual(await seriousViolations(watched.page), []);
      if (SHOTS)
        await watched.page.screenshot({ path: path.join(SHOTS, "models-empty-light.png") });
      await watched.page.keyboard.press("Escape");
      await help.waitFor({ state: "detached" });
      assert.deepEqual(watched.problems, []);
      await watched.context.close();
    } finally {
      await empty.stop();
    }
  });
});
