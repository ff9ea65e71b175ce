/**
 * axe-core finds nothing, of any impact, on each of the app's views (the chat empty, after a turn
 * and with its slash-command list open, Settings, the editor with code open in Monaco, Models, Plugins), in light and in dark,
 * in a wide window and in a narrow one (the columns collapsed).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { allViolations } from "./support/page.ts";

const LONG = "project-conventions-reminder-for-release-weeks";
const PLUGIN = `// Adds a reminder to every turn.
export function beforeChat() {
  return { notice: "remember the style guide" };
}
`;

describe(
  "every view: no axe-core violation of any impact",
  { skip: skipChat, timeout: 180_000 },
  () => {
    let rig: ChatRig;
    before(async () => {
      rig = await startChatRig({
        plugins: { "style-notes": { code: PLUGIN }, [LONG]: { code: PLUGIN } },
      });
    });
    after(async () => {
      await rig?.close();
    });

    const goTo = (name: string) =>
      rig.page.getByRole("navigation", { name: "Main" }).getByRole("button", { name }).click();

    async function scan(what: string): Promise<void> {
      const found: Record<string, unknown[]> = {};
      for (const colorScheme of ["light", "dark"] as const) {
        await rig.page.emulateMedia({ colorScheme });
        // Monaco repaints its tokens for the new theme a frame later.
        await rig.page.waitForTimeout(150);
        const v = await allViolations(rig.page);
        if (v.length > 0) found[colorScheme] = v;
      }
      await rig.page.emulateMedia({ colorScheme: null });
      assert.deepEqual(found, {}, `${what}: ${JSON.stringify(found, null, 1)}`);
    }

    for (const width of [1400, 900]) {
      it(`at ${width} px: the chat, empty and after a turn`, async () => {
        const { page, model } = rig;
        await page.setViewportSize({ width, height: 800 });
        await goTo("Chat");
        await page.getByRole("button", { name: "New chat" }).first().click();
        await page.getByRole("heading", { name: "What shall we work on?" }).waitFor();
        await scan(`empty chat at ${width}`);
        model.push({ text: ["## Done\n\nNothing to change."], usage: { input: 900, output: 9 } });
        await rig.composer().fill(`Hello at ${width}`);
        await page.keyboard.press("Enter");
        await page.getByText("Nothing to change.").waitFor({ timeout: 20_000 });
        await page.getByRole("button", { name: "Send" }).waitFor();
        await scan(`chat after a turn at ${width}`);
        await rig.composer().fill("/");
        await page.getByRole("listbox", { name: "Slash commands" }).waitFor();
        await scan(`slash-command list open at ${width}`);
        await rig.composer().fill("");
      });

      it(`at ${width} px: Settings, Models and Plugins`, async () => {
        await rig.page.setViewportSize({ width, height: 800 });
        await goTo("Settings");
        await rig.page.getByRole("heading", { name: "Settings", level: 1 }).waitFor();
        await scan(`settings at ${width}`);
        await goTo("Models");
        await rig.page.getByRole("heading", { level: 1 }).first().waitFor();
        await scan(`models at ${width}`);
        await goTo("Plugins");
        await rig.page.getByText("style-notes").first().waitFor();
        await scan(`plugins at ${width}`);
      });

      it(`at ${width} px: the editor, with code open in Monaco`, async () => {
        const { page } = rig;
        await page.setViewportSize({ width, height: 800 });
        await goTo("Editor");
        await page.getByRole("heading", { name: "Plugin editor" }).waitFor();
        // The bottom panel says what it will hold before a plugin is picked (the first visit).
        if ((await page.locator(".plugin-item[aria-current]").count()) === 0)
          await page
            .getByRole("region", { name: "Problems, log and settings" })
            .getByText("its problems, its live log and its settings will appear here")
            .waitFor();
        // A long plugin name shows whole (it wraps), never clipped.
        const name = page.locator(".plugin-item-name", { hasText: LONG });
        assert.equal(await name.innerText().then((t) => t.replace(/\s/g, "")), LONG);
        assert.ok(
          await name.evaluate((el) => el.scrollWidth <= el.clientWidth + 1),
          "the plugin's name is not cut",
        );
        await scan(`editor before opening code at ${width}`);
        await page
          .locator(".editor-side")
          .getByRole("button", { name: /^style-notes/ })
          .click();
        await page.locator(".editor-code .monaco-editor .view-lines").waitFor();
        await page.getByText("remember the style guide").first().waitFor();
        await scan(`editor with code at ${width}`);
      });
    }

    it("met no console error, CSP violation or outside request", () => {
      assert.deepEqual(rig.problems, []);
    });
  },
);
