/**
 * A session outlives `islet serve` (Chromium, a loopback model): a turn with a plugin's injected
 * message, a tool call and a Markdown answer; the server stops and starts again on the
 * same home; opening the session from the sessions column shows it whole — prompt, injected
 * message, tool card with its output, answer, hook timeline — and the next turn carries on with
 * the saved conversation.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";

const NOTES = {
  yaml: 'description: "Project notes"\nonce: true\n',
  code: `export function beforeChat() {
  return { message: "The project uses pnpm.", role: "user" };
}`,
};

describe("chat: resume after a restart", { skip: skipChat, timeout: 120_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig({ plugins: { notes: NOTES } });
  });
  after(async () => {
    await rig?.close();
  });

  it("reopens the session whole after islet serve restarts, and goes on from it", async () => {
    const { model } = rig;
    let page = rig.page;
    model.push(
      { toolCalls: [{ name: "Read", arguments: { path: "readme.txt" } }] },
      { text: ["## Found it\n\nThe readme says **hello**."] },
    );
    await writeFile(path.join(rig.workdir, "readme.txt"), "hello from the readme\n");
    await rig.composer().fill("What does the readme say?");
    await page.keyboard.press("Enter");
    const conversation = page.getByRole("region", { name: "Conversation" });
    await expectText(conversation, "The readme says", 15_000);
    await page.getByRole("button", { name: "Send" }).waitFor();

    await rig.restart();
    page = rig.page; // the same tab on islet serve, a new window of the relaunched app
    // A new chat after the restart; the saved one is in the sessions column.
    await page
      .getByRole("navigation", { name: "Chats" })
      .locator(".session-open", { hasText: "What does the readme say?" })
      .click();
    await expectText(
      page.getByRole("region", { name: "Conversation" }),
      ["What does the readme say?", "notes", "The project uses pnpm.", "Found it", "hello"],
      15_000,
    );
    const card = page.getByRole("article", { name: "Tool Read" });
    await expectText(card, "Done");
    await card.getByRole("button", { name: /^Read/ }).click();
    await expectText(card, "hello from the readme");
    await expectText(page.getByRole("region", { name: "Conversation" }), /hook call/);

    model.push({ text: ["Still here."] });
    await rig.composer().fill("And then?");
    await page.keyboard.press("Enter");
    await expectText(page.getByRole("region", { name: "Conversation" }), "Still here.", 15_000);
    const sent = model.chatRequests.at(-1)?.body as {
      messages: { role: string; content: string }[];
    };
    const said = sent.messages.map((m) => m.content).join("\n");
    assert.match(said, /What does the readme say\?/, "the resumed turn carries the saved ones");
    assert.match(said, /The readme says \*\*hello\*\*/);
    assert.deepEqual(rig.problems, []);
  });
});
