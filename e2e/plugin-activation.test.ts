/**
 * On-demand activation in the page (Chromium, `islet serve`, a loopback model): when the model
 * asks for an on-demand plugin the activation dialog shows what it would run; Allow activates it
 * and the turn goes on with its tool; Deny tells the model. The plugin browser lists it with its
 * status and an Activate/Deactivate toggle. axe-core finds no serious problem in either.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";

const WORDCOUNT = {
  yaml: 'description: "Counts the words of a text."\nactivation: on-demand\n',
  code: `
export function schema() {
  return { name: "WordCount", description: "Counts words.", parameters: { type: "object", properties: { text: { type: "string", description: "the text" } }, required: ["text"] } };
}
export async function execute(ctx, args) { return "words=" + args.text.split(/\\s+/).length; }`,
};

type Body = { messages: { content: string }[]; tools?: { function: { name: string } }[] };

describe(
  "plugin activation: the dialog, Allow, Deny, the plugin browser",
  { skip: skipChat, timeout: 120_000 },
  () => {
    let rig: ChatRig;
    before(async () => {
      rig = await startChatRig({ plugins: { wordcount: WORDCOUNT } });
    });
    after(async () => {
      await rig?.close();
    });

    const shots = process.env["ISLET_SCREENSHOTS"];
    const activate = {
      toolCalls: [
        { name: "activate_plugin", arguments: { name: "wordcount", reason: "to count the words" } },
      ],
    };
    const conversation = () => rig.page.getByRole("region", { name: "Conversation" });

    it("Deny: the dialog goes, the model is told, the plugin stays inactive", async () => {
      const { page, model } = rig;
      model.push(activate, { text: ["Fine, I will count by hand."] });
      await rig.composer().fill("How many words?");
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Activate plugin" });
      await expectText(
        dialog,
        [
          "Activate the code plugin wordcount?",
          "Counts the words of a text.",
          "runs sandboxed JavaScript from",
          "Why: to count the words",
        ],
        15_000,
      );
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Deny");
      await dialog.getByRole("button", { name: "Deny" }).click();
      await dialog.waitFor({ state: "hidden" });
      await expectText(conversation(), "Fine, I will count by hand.", 10_000);
      const sent = model.chatRequests.at(-1)?.body as Body;
      assert.equal(
        sent.messages.at(-1)?.content,
        "wordcount was not activated: the user denied it",
      );
      assert.deepEqual(rig.problems, []);
    });

    it("Allow: the plugin is activated and the turn goes on with its tool", async () => {
      const { page, model } = rig;
      model.push(activate, { text: ["Activated; counting now."] });
      await page.getByRole("button", { name: "Send" }).waitFor();
      await rig.composer().fill("Count them with the plugin");
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Activate plugin" });
      await expectText(dialog, "Activate the code plugin wordcount?", 15_000);
      // ISLET_SCREENSHOTS=DIR keeps the dialog as DIR/activation-dialog.png.
      if (shots) await page.screenshot({ path: path.join(shots, "activation-dialog.png") });
      const found = await seriousViolationsLightAndDark(page);
      assert.deepEqual(found, { light: [], dark: [] }, JSON.stringify(found, null, 1));
      await dialog.getByRole("button", { name: "Activate" }).click();
      await dialog.waitFor({ state: "hidden" });
      await expectText(conversation(), "Activated; counting now.", 10_000);
      const sent = model.chatRequests.at(-1)?.body as Body;
      assert.equal(
        sent.messages.at(-1)?.content,
        "wordcount is active; its tools are available now: WordCount",
      );
      assert.ok((sent.tools ?? []).some((t) => t.function.name === "WordCount"));
      assert.deepEqual(rig.problems, []);
    });

    it("the plugin browser lists it with its status; Deactivate and Activate toggle it", async () => {
      const { page } = rig;
      await page.getByRole("button", { name: "Plugins", exact: true }).click();
      const section = page.getByRole("region", { name: /On-demand plugins/ });
      const card = section.getByRole("article", { name: "wordcount" });
      await expectText(
        card,
        ["Active", "Counts the words of a text.", "runs sandboxed JavaScript"],
        15_000,
      );
      if (shots) await section.screenshot({ path: path.join(shots, "activation-browser.png") });
      const found = await seriousViolationsLightAndDark(page);
      assert.deepEqual(found, { light: [], dark: [] }, JSON.stringify(found, null, 1));

      await card.getByRole("button", { name: "Deactivate wordcount" }).click();
      await expectText(card, "Inactive", 10_000);
      await card.getByRole("button", { name: "Activate wordcount" }).click();
      const dialog = page.getByRole("dialog", { name: "Activate plugin" });
      await expectText(dialog, "you asked to activate it in the plugin browser", 10_000);
      await dialog.getByRole("button", { name: "Activate" }).click();
      await expectText(card, "Active", 10_000);
      assert.deepEqual(rig.problems, []);
    });
  },
);
