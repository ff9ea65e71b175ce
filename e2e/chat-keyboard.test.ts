/**
 * The chat by keyboard alone, and its accessibility (axe-core, light and dark): reach the
 * composer with Tab, type, send with Enter, answer the approval with the keyboard, open the
 * tool card and the hook timeline, with no serious or critical axe violation on the way.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";

const NOTICE = `export function beforeChat() { return { notice: "remember the style guide" }; }`;

describe("chat: keyboard only, and axe-core", { skip: skipChat, timeout: 120_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig({ plugins: { "style-notes": { code: NOTICE } } });
  });
  after(async () => {
    await rig?.close();
  });

  const focused = () =>
    rig.page.evaluate(() => {
      const el = document.activeElement;
      return el ? `${el.getAttribute("aria-label") ?? ""}|${el.textContent?.trim() ?? ""}` : "";
    });

  it("the empty chat has no serious or critical accessibility problem", async () => {
    assert.deepEqual(await seriousViolationsLightAndDark(rig.page), { light: [], dark: [] });
  });

  it("type, send, approve, and open the results, all from the keyboard", async () => {
    const { page, model } = rig;
    model.push(
      {
        thinking: ["A file is wanted."],
        text: ["I'll write it."],
        toolCalls: [{ name: "Write", arguments: { path: "kb.txt", content: "typed\n" } }],
      },
      { text: ["## Done\n\n`kb.txt` is written."] },
    );
    await page.reload();
    await rig.composer().waitFor();
    // The first Tab stop is the skip link; Enter on it lands in the composer.
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "|Skip to message box");
    await page.keyboard.press("Enter");
    assert.ok(
      await rig.composer().evaluate((el) => el === document.activeElement),
      "Tab reaches the composer",
    );
    await page.keyboard.type("Write kb.txt");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("please");
    assert.equal(await rig.composer().inputValue(), "Write kb.txt\nplease");
    await page.keyboard.press("Enter");

    // The approval takes the focus: Enter allows.
    const card = page.getByRole("article", { name: "Tool Write" });
    await card.getByRole("group", { name: "Allow Write?" }).waitFor({ timeout: 15_000 });
    await page.waitForFunction(() => document.activeElement?.textContent === "Allow");
    await page.keyboard.press("Enter");
    assert.ok(
      await rig.composer().evaluate((el) => el === document.activeElement),
      "the focus is back in the composer",
    );
    const transcript = page.getByRole("region", { name: "Conversation" });
    await expectText(transcript, "kb.txt is written.", 10_000);
    assert.equal(readFileSync(path.join(rig.workdir, "kb.txt"), "utf8"), "typed\n");
    await expectText(transcript, ["style-notes", "remember the style guide"]);

    // Shift+Tab back from the composer into the transcript's controls; open the tool card.
    await rig.composer().focus();
    let found = false;
    for (let i = 0; i < 20 && !found; i++) {
      await page.keyboard.press("Shift+Tab");
      found = (await focused()).includes("Write");
    }
    assert.ok(found, "the tool card's header is reachable by keyboard");
    await page.keyboard.press("Enter");
    await expectText(card, [/output/i, "Created kb.txt"]);
    const hooks = transcript.getByRole("button", { name: /hook call/ }).last();
    await hooks.focus();
    await page.keyboard.press("Enter");
    assert.equal(await hooks.getAttribute("aria-expanded"), "true");
    await expectText(
      transcript.getByRole("region", { name: "Hook timeline" }).last(),
      "style-notes",
    );

    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    assert.deepEqual(rig.problems, []);
  });
});
