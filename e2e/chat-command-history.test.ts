/**
 * Slash commands in the saved history (Chromium, `islet serve`, a loopback model): `/help` sent
 * in a chat is still there, with its output, after the page is reloaded and the session opened.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";

describe("chat: slash commands in the history", { skip: skipChat, timeout: 120_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig();
  });
  after(async () => {
    await rig?.close();
  });

  it("/help and its output come back when the session is reopened", async () => {
    const { page, model } = rig;
    const transcript = () => page.getByRole("region", { name: "Conversation" });
    model.push({ text: ["Hi."] });
    await rig.composer().fill("Hello there");
    await page.keyboard.press("Enter");
    await expectText(transcript(), "Hi.", 15_000);
    await page.getByRole("button", { name: "Send" }).waitFor();
    await rig.composer().fill("/help");
    await page.keyboard.press("Enter");
    await expectText(transcript(), ["/help", "/agent"], 10_000);
    const live = await transcript().innerText();

    await page.reload();
    const chats = page.getByRole("navigation", { name: "Chats" });
    await chats.locator(".session-title", { hasText: "Hello there" }).click({ timeout: 20_000 });
    const reopened = await expectText(transcript(), ["Hello there", "Hi.", "/help", "/agent"]);
    assert.equal(reopened.trim(), live.trim(), "the reopened chat reads as it did live");
    assert.deepEqual(rig.problems, []);
  });
});
