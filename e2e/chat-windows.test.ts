/**
 * One conversation in two browser pages (Chromium, `islet serve`, a loopback model): the second
 * page sees the first one's prompt and answer stream live, a page opened mid-turn shows the turn
 * so far and follows it, and the sender shows everything once.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { expectText } from "./support/browser.ts";
import { startChatRig, type ChatRig } from "./support/chat.ts";
import { serveOnly } from "./support/target.ts";

const skip = serveOnly("opens the conversation in a second browser tab");

describe("chat: one conversation, two windows", { skip, timeout: 150_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig();
  });
  after(async () => {
    await rig?.close();
  });

  const transcript = (page: Page) => page.getByRole("region", { name: "Conversation" });
  const count = async (page: Page, text: string) =>
    (await transcript(page).innerText()).split(text).length - 1;

  /**
   * Another window (its own browser context: a background tab would not paint) of the same
   * `islet serve`, showing the session titled `title`.
   */
  async function openElsewhere(title: string): Promise<Page> {
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 820 } });
    await context.route(
      (url) => !url.href.startsWith("http://127.0.0.1") && !url.href.startsWith("ws://127.0.0.1"),
      (route) => {
        rig.problems.push(`second page outside request: ${route.request().url()}`);
        return route.abort();
      },
    );
    const page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning")
        rig.problems.push(`second page console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => rig.problems.push(`second page error: ${e.message}`));
    await page.goto(rig.serve.url);
    const chats = page.getByRole("navigation", { name: "Chats" });
    await chats.locator(".session-title", { hasText: title }).first().click({ timeout: 20_000 });
    await expectText(page.locator("#chat-title"), title, 10_000);
    return page;
  }

  it("the second page sees the first page's prompt and answer live; nothing twice", async () => {
    const { page, model } = rig;
    model.push({ text: ["Ready."] });
    await rig.composer().fill("Shared chat");
    await page.keyboard.press("Enter");
    await expectText(transcript(page), "Ready.", 15_000);
    const other = await openElsewhere("Shared chat");
    await expectText(transcript(other), "Ready.");

    const words = Array.from({ length: 24 }, (_, i) => `w${i} `);
    model.push({ text: words, pauseMs: 250 });
    await rig.composer().fill("Count slowly");
    await page.keyboard.press("Enter");
    // The other page shows the prompt and the answer as it streams, before it has ended.
    await expectText(transcript(other), ["Count slowly", "w3 "], 15_000);
    assert.ok(!(await transcript(other).innerText()).includes("w23"), "still streaming");
    await expectText(transcript(page), "w23", 20_000);
    await expectText(transcript(other), "w23", 10_000);
    for (const p of [page, other])
      await p.getByRole("button", { name: "Send" }).waitFor({ timeout: 10_000 });
    for (const p of [page, other]) {
      assert.equal(await count(p, "Count slowly"), 1);
      assert.equal(await count(p, "w23"), 1);
    }
    await other.context().close();
    assert.deepEqual(rig.problems, []);
  });

  it("a page opened mid-turn shows the turn so far as running, then follows it", async () => {
    const { page, model } = rig;
    const words = Array.from({ length: 30 }, (_, i) => `v${i} `);
    model.push({ text: words, pauseMs: 250 });
    await rig.composer().fill("Count again");
    await page.keyboard.press("Enter");
    await expectText(transcript(page), "v4 ", 15_000);
    const late = await openElsewhere("Shared chat");
    await expectText(transcript(late), ["Count again", "v4 "], 10_000);
    // It shows the turn as running (Stop, not Send) until the turn ends.
    const shown = await transcript(late).innerText();
    if (!shown.includes("v29"))
      await late.getByRole("button", { name: "Stop" }).waitFor({ timeout: 5_000 });
    await expectText(transcript(late), "v29", 20_000);
    await late.getByRole("button", { name: "Send" }).waitFor({ timeout: 10_000 });
    assert.equal(await count(late, "v29"), 1);
    assert.equal(await count(late, "Count again"), 1);
    await late.context().close();
    assert.deepEqual(rig.problems, []);
  });
});
