/**
 * Live tool output in the chat (Chromium, `islet serve`, a loopback model): a slow Bash
 * command's first line shows in its card while the command still runs; the result replaces it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";

describe("chat: live tool output", { skip: skipChat, timeout: 120_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig();
  });
  after(async () => {
    await rig?.close();
  });

  it("a slow command's first line appears in its card before the command ends", async () => {
    const { page, model } = rig;
    const command = "echo first-line; sleep 6; echo second-line";
    model.push({ toolCalls: [{ name: "Bash", arguments: { command } }] }, { text: ["It ran."] });
    await rig.composer().fill("Run the slow command");
    await page.keyboard.press("Enter");
    const card = page.getByRole("article", { name: "Tool Bash" });
    // The server's first conversation: once it waited over 15 s for its first approval in CI.
    await card.getByRole("button", { name: "Allow", exact: true }).click({ timeout: 45_000 });
    const live = card.getByLabel("Bash output so far");
    await expectText(live, "first-line", 5_000);
    // Still running: the second line is seconds away.
    assert.match(await card.innerText(), /Running/);
    assert.equal((await live.innerText()).trim(), "first-line");
    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });

    await expectText(page.getByRole("region", { name: "Conversation" }), "It ran.", 20_000);
    await expectText(card, "Done");
    assert.equal(await live.count(), 0, "the result took the live output's place");
    await card.getByRole("button", { name: /Bash/ }).first().click();
    await expectText(card, ["first-line", "second-line", "exit code 0"]);
    assert.deepEqual(rig.problems, []);
  });
});
