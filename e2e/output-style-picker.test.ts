/**
 * The output style picker in the chat header: it lists the home's styles, is reached and changed
 * from the keyboard, the next turn's system text carries the chosen style, and the header has no
 * serious or critical axe violation in light or dark. With ISLET_SCREENSHOTS=DIR:
 * DIR/output-style-{light,dark}.png.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];
const TEACHER =
  "---\nname: Teacher\ndescription: Explains as it goes\n---\nSTYLE-TEACHER: explain why.\n";

describe("chat: the output style picker", { skip: skipChat, timeout: 120_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig({ homeFiles: { "config/output-styles/teacher.md": TEACHER } });
  });
  after(async () => {
    await rig?.close();
  });

  it("picks a style from the keyboard; the next turn gets it", async () => {
    const { page, model } = rig;
    const conversation = page.getByRole("region", { name: "Conversation" });
    model.push({ text: ["First answer."] }, { text: ["Styled answer."] });
    await rig.composer().fill("hello");
    await page.keyboard.press("Enter");
    await expectText(conversation, "First answer.", 15_000);

    const picker = page.getByLabel("Output style for this chat");
    await picker.waitFor();
    await expectText(picker, ["Default style", "Teacher"]);
    assert.equal(await picker.inputValue(), "default");
    // From the composer, Shift+Tab walks back into the header's pickers.
    await rig.composer().focus();
    for (let i = 0; i < 12 && !(await picker.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press("Shift+Tab");
    assert.ok(await picker.evaluate((el) => el === document.activeElement), "reached by keyboard");
    await page.keyboard.press("ArrowDown");
    await page.waitForFunction(
      () =>
        (document.querySelector("select[class='picker-select']:focus") as HTMLSelectElement | null)
          ?.value === "Teacher",
    );

    const before = model.chatRequests.length;
    await rig.composer().fill("again");
    await page.keyboard.press("Enter");
    await expectText(conversation, "Styled answer.", 15_000);
    assert.match(model.chatRequests[before].raw, /STYLE-TEACHER: explain why\./);
    assert.doesNotMatch(model.chatRequests[0].raw, /STYLE-TEACHER/);
    assert.equal(await picker.inputValue(), "Teacher", "the picker shows the chosen style");

    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    if (SHOTS)
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        await page
          .locator(".chat-header")
          .screenshot({ path: path.join(SHOTS, `output-style-${colorScheme}.png`) });
      }
    await page.emulateMedia({ colorScheme: null });
    assert.deepEqual(rig.problems, []);
  });
});
