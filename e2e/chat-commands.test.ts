/**
 * Slash-command autocomplete in the composer (Chromium, `islet serve`): "/" lists built-in and
 * plugin commands with their hints, the keyboard picks one, and a command whose plugin failed to
 * load is listed as failed and explains itself when sent.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";

const DEPLOY = `export function command() {
  return { name: "deploy", description: "Deploy the site.", hints: "[environment]" };
}
export function executeCommand(args) { return { output: "Deploying to " + args + "." }; }
`;
const GREET = `export function command() { return { name: "greet", description: "Say hello.", hints: ["name"] }; }
export function executeCommand(args) { return { output: "Hello " + args }; }
export function (`;

describe("chat: slash-command autocomplete", { skip: skipChat, timeout: 90_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig({
      plugins: { "deploy-command": { code: DEPLOY }, "greet-command": { code: GREET } },
      // greet-command declared /greet the last time it loaded; it is broken now.
      homeFiles: { "cache/plugins/commands.json": JSON.stringify({ "greet-command": "greet" }) },
    });
  });
  after(async () => {
    await rig?.close();
  });

  it("lists built-in and plugin commands with hints and picks one by keyboard", async () => {
    const { page } = rig;
    const composer = rig.composer();
    await composer.focus();
    await page.keyboard.type("/");
    const menu = page.getByRole("listbox", { name: "Slash commands" });
    await expectText(menu, [
      "/help",
      "built-in",
      "/agent [name]",
      "/deploy [environment]",
      "deploy-command",
    ]);
    await expectText(menu, ["/greet", "failed to load"]);
    const combobox = page.getByRole("combobox", { name: "Message" });
    assert.equal(await combobox.getAttribute("aria-expanded"), "true");

    await page.keyboard.type("de");
    assert.deepEqual(
      await menu
        .getByRole("option")
        .allInnerTexts()
        .then((t) => t.length),
      1,
    );
    const option = menu.getByRole("option", { name: /deploy/ });
    assert.equal(await option.getAttribute("aria-selected"), "true");
    assert.equal(
      await composer.getAttribute("aria-activedescendant"),
      await option.getAttribute("id"),
    );
    await page.keyboard.press("Tab");
    assert.equal(await composer.inputValue(), "/deploy ");
    await menu.waitFor({ state: "detached" });
    await expectText(page.locator(".composer-hint"), "/deploy [environment]");
    await page.keyboard.type("staging");
    await page.keyboard.press("Enter");
    await expectText(
      page.getByRole("region", { name: "Conversation" }),
      "Deploying to staging.",
      10_000,
    );

    // Arrows move through the list, Escape closes it without picking.
    await composer.focus();
    await page.keyboard.type("/");
    await menu.waitFor();
    const selected = () => menu.locator('[aria-selected="true"]').innerText();
    const first = await selected();
    await page.keyboard.press("ArrowDown");
    assert.notEqual(await selected(), first);
    await page.keyboard.press("ArrowUp");
    assert.equal(await selected(), first);
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    assert.equal(await composer.inputValue(), "/");
    // The next key that still matches brings it back; so does Ctrl+Space after another Escape.
    await page.keyboard.type("h");
    await expectText(menu, "/help");
    await page.keyboard.press("Escape");
    await menu.waitFor({ state: "detached" });
    await page.keyboard.press("Control+Space");
    await expectText(menu, "/help");
    assert.equal(await composer.inputValue(), "/h");
    await page.keyboard.press("Escape");
    await composer.fill("");
    assert.deepEqual(rig.problems, []);
  });

  it("a command whose plugin failed says so when sent", async () => {
    const { page } = rig;
    await rig.composer().fill("/greet Ann");
    await page.keyboard.press("Enter");
    await expectText(
      page.getByRole("region", { name: "Conversation" }),
      /\/greet comes from greet-command, which failed: .*index\.ts/,
      10_000,
    );
    assert.deepEqual(rig.problems, []);
  });
});
