/**
 * The app at the widths people use (1400, 1100, 900 and 700 px), light and dark: the chat after
 * one exchange, a new chat, Settings, the editor (empty, then with a plugin's code), Models and
 * Plugins, into a folder (default /tmp/islet-widths).
 * Needs `npm run build` and Chromium:
 *
 *   node --no-node-snapshot scripts/screenshots/widths.ts [folder] [view…]
 */
import "../../e2e/support/use-serve-target.ts";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { startChatRig } from "../../e2e/support/chat.ts";

const OUT = process.argv[2] ?? "/tmp/islet-widths";
const VIEWS = ["chat", "settings", "editor", "editor-code", "models", "plugins", "newchat"];
const LONG = "project-conventions-reminder-for-release-weeks";
const CODE = `// Reminds the model of the project's conventions.
export function beforeChat() {
  return { notice: "uses pnpm; tests sit beside the code" };
}
`;
const only = process.argv.slice(3);
const WIDTHS = [1400, 1100, 900, 700];

async function shoot(colorScheme: "light" | "dark"): Promise<void> {
  const rig = await startChatRig({
    colorScheme,
    viewport: { width: 1400, height: 800 },
    plugins: { [LONG]: { code: CODE }, "style-notes": { code: CODE } },
  });
  try {
    const { page, model } = rig;
    model.push({ text: ["Hello! What shall we look at?"], usage: { input: 1200, output: 20 } });
    await rig.composer().fill("Hello there");
    await page.keyboard.press("Enter");
    await page.getByText("What shall we look at?").waitFor({ timeout: 20_000 });
    for (const view of VIEWS.filter((v) => only.length === 0 || only.includes(v))) {
      const nav = view === "newchat" ? "chat" : view.replace("-code", "");
      await page
        .getByRole("navigation", { name: "Main" })
        .getByRole("button", { name: new RegExp(`^${nav}`, "i") })
        .click();
      if (view === "newchat") await page.getByRole("button", { name: "New chat" }).first().click();
      if (view === "editor-code") {
        await page
          .locator(".editor-side")
          .getByRole("button", { name: new RegExp(LONG) })
          .click();
        await page.locator(".editor-code .monaco-editor .view-lines").waitFor();
      }
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 800 });
        await page.mouse.move(0, 0);
        await page.waitForTimeout(view === "editor" ? 1500 : 300);
        await page.screenshot({ path: path.join(OUT, `${view}-${width}-${colorScheme}.png`) });
      }
      await page.setViewportSize({ width: 1400, height: 800 });
    }
    if (rig.problems.length) console.error(rig.problems.join("\n"));
  } finally {
    await rig.close();
  }
}

await mkdir(OUT, { recursive: true });
await shoot("light");
await shoot("dark");
