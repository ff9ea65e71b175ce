/**
 * The prompt budget for extensions in the app: 300 Claude Code plugins and three code plugins'
 * tools on a model with a 4k window. The turn searches for the currency tool, runs it, and the
 * turn's hook timeline says how many extensions it offered and that the search was used.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { claudePlugins, TOOL_PLUGINS } from "../main/engine/testing/extension-catalog.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];

describe("chat: the prompt budget for extensions", { skip: skipChat, timeout: 120_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig({
      plugins: TOOL_PLUGINS,
      homeFiles: claudePlugins(),
      model: { models: [{ id: "fake-model", object: "model", max_model_len: 4096 }] },
      viewport: { width: 1100, height: 760 },
    });
  });
  after(async () => {
    await rig?.close();
  });

  it("the timeline says how many of the extensions the turn offered and that it searched", async () => {
    const { page, model } = rig;
    model.push(
      { toolCalls: [{ name: "SearchTools", arguments: { query: "exchange rate" } }] },
      { toolCalls: [{ name: "CurrencyConvert", arguments: { text: "10 EUR to USD" } }] },
      { text: ["10 euros come to about 11 dollars."] },
    );
    await rig.composer().fill("Work out what 10 euros come to in dollars");
    await page.keyboard.press("Enter");
    const card = page.getByRole("article", { name: "Tool CurrencyConvert" });
    try {
      await card.getByRole("button", { name: "Allow", exact: true }).click({ timeout: 45_000 });
    } catch (err) {
      // What the model was offered and what the page shows say which step went wrong.
      const offered = model.chatRequests.map((r) =>
        (r.body as { tools?: { function: { name: string } }[] }).tools
          ?.map((t) => t.function.name)
          .join(","),
      );
      const shown = await page.getByRole("region", { name: "Conversation" }).innerText();
      throw new Error(
        `no Allow for CurrencyConvert; requests offered: ${JSON.stringify(offered)}; page: ${shown.slice(0, 2000)}`,
        { cause: err },
      );
    }
    const conversation = page.getByRole("region", { name: "Conversation" });
    await expectText(conversation, "10 euros come to about 11 dollars.", 20_000);
    const timeline = page.getByRole("region", { name: "Hook timeline" });
    await expectText(timeline, /Offered \d+ of 4\d\d extensions; search used/);
    const tools = (model.chatRequests[0].body as { tools: { function: { name: string } }[] }).tools;
    assert.ok(tools.some((t) => t.function.name === "SearchTools"));
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "chat-extension-budget.png") });
    assert.deepEqual(rig.problems, []);
  });
});
