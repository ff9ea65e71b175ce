/**
 * Settings → Workspace in the app: an untrusted project's `.islet/` command shows as held back;
 * Trust this folder… (keyboard only) asks first, with Cancel focused and Escape cancelling, and
 * once confirmed the command serves in the composer without a restart; Stop trusting (confirmed)
 * holds it back again. No serious or critical axe violation, light or dark, dialog open or not.
 * With ISLET_SCREENSHOTS=DIR: DIR/workspace-trust-section.png and workspace-trust-dialog.png.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];

describe("workspace trust in Settings", { skip: skipChat, timeout: 180_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig();
    const file = path.join(rig.workdir, ".islet", "config", "commands", "deploy-notes.md");
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, "---\ndescription: Writes deploy notes\n---\nNotes.");
  });
  after(async () => {
    await rig?.close();
  });

  /** The composer's menu entry for /deploy-notes once the list has caught up: disabled or not. */
  async function commandDisabled(expectDisabled: boolean): Promise<void> {
    const { page } = rig;
    await page.getByRole("button", { name: "Chat", exact: true }).click();
    const composer = rig.composer();
    const menu = page.getByRole("listbox", { name: "Slash commands" });
    const deadline = Date.now() + 30_000;
    for (;;) {
      await composer.fill("");
      await composer.focus();
      await page.keyboard.type("/deploy-n");
      const option = menu.getByRole("option", { name: /deploy-notes/ });
      const disabled = await option
        .getAttribute("aria-disabled", { timeout: 2000 })
        .then((v) => v === "true")
        .catch(() => null);
      if (disabled === expectDisabled) break;
      if (Date.now() > deadline) {
        if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "workspace-trust-failed.png") });
        assert.fail(
          `deploy-notes disabled: ${disabled}; the menu shows ${await menu.innerText().catch(() => "nothing")}`,
        );
      }
      await page.waitForTimeout(300);
    }
    // Cleared, not Escaped: the composer keeps a dismissed menu closed for the same text.
    await composer.fill("");
  }

  const openSettings = async () => {
    await rig.page.getByRole("button", { name: "Settings", exact: true }).click();
    await rig.page.getByRole("heading", { name: "Workspace" }).waitFor({ timeout: 20_000 });
    return rig.page.getByRole("region", { name: "Workspace" });
  };

  it("shows the folder as not trusted with what is held back", async () => {
    await commandDisabled(true);
    const section = await openSettings();
    await expectText(
      section,
      ["Not trusted", "not trusted yet", "commands from .islet/config/commands/", rig.workdir],
      15_000,
    );
    if (SHOTS) await section.screenshot({ path: path.join(SHOTS, "workspace-trust-section.png") });
    assert.deepEqual(await seriousViolationsLightAndDark(rig.page), { light: [], dark: [] });
  });

  it("trusts from the keyboard after a confirmation, and the command serves without a restart", async () => {
    const { page } = rig;
    const section = await openSettings();
    await section.getByRole("button", { name: "Trust this folder…" }).focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Trust this folder?" });
    await dialog.waitFor();
    await expectText(dialog, ["commands from .islet/config/commands/"]);
    const focused = await page.evaluate(() => document.activeElement?.textContent);
    assert.equal(focused, "Cancel", "Cancel is the focused, default choice");
    if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "workspace-trust-dialog.png") });
    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });

    // Escape cancels: nothing changes.
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    await expectText(section, ["Not trusted"]);

    await section.getByRole("button", { name: "Trust this folder…" }).focus();
    await page.keyboard.press("Enter");
    await dialog.waitFor();
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "detached" });
    await expectText(section, ["Trusted", "Stop trusting"], 15_000);
    await commandDisabled(false);
    assert.deepEqual(rig.problems, []);
  });

  it("stops trusting after a confirmation, and the command is held back again", async () => {
    const { page } = rig;
    const section = await openSettings();
    await section.getByRole("button", { name: "Stop trusting" }).click();
    const dialog = page.getByRole("dialog", { name: "Stop trusting this folder?" });
    await dialog.waitFor();
    await expectText(dialog, ["commands from .islet/config/commands/"]);
    await dialog.getByRole("button", { name: "Stop trusting" }).click();
    await expectText(section, ["Not trusted", "you chose not to trust it"], 15_000);
    await commandDisabled(true);
    assert.deepEqual(rig.problems, []);
  });
});
