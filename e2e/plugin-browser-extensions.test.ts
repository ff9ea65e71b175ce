/**
 * The plugin browser in Chromium against a real `islet serve`: shell hook files and a Claude Code
 * plugin (written to the published format) show below the code plugins, with source, what each
 * brings and their errors; no console error, and no serious accessibility problem.
 */
import assert from "node:assert/strict";
import { cpSync, existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import {
  BUILT_PAGE,
  CHROMIUM_ARGS,
  expectText,
  findChromium,
  startServe,
  type Serve,
} from "./support/browser.ts";
import { serveOnly } from "./support/target.ts";
import { seriousViolations } from "./support/page.ts";

const browserBinary = findChromium();
const skip = serveOnly("starts its own islet serve with a prepared home");
const FIXTURE = path.join(
  import.meta.dirname,
  "..",
  "main",
  "extensions",
  "claude",
  "fixtures",
  "code-review",
);

describe("plugin browser: shell hooks and Claude Code plugins", { skip, timeout: 60_000 }, () => {
  let dir: string;
  let serve: Serve;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
    dir = await mkdtemp(path.join(tmpdir(), "islet-browser-ext-"));
    const home = path.join(dir, "home");
    cpSync(FIXTURE, path.join(home, "plugins", "code-review"), { recursive: true });
    await mkdir(path.join(home, "config", "hooks"), { recursive: true });
    await writeFile(
      path.join(home, "config", "hooks", "guard.yaml"),
      "PreToolUse:\n  - matcher: Bash\n    hooks: [{ command: ./check.sh }]\nOnFire: []\n",
    );
    await writeFile(path.join(home, "config", "hooks", "broken.json"), '{"hooks": {"Stop": 1}}');
    await mkdir(path.join(dir, "work"), { recursive: true });
    const launched = chromium.launch({
      executablePath: (browserBinary as { path: string }).path,
      args: CHROMIUM_ARGS,
    });
    [serve, browser] = await Promise.all([
      startServe([
        "--home",
        home,
        "--workdir",
        path.join(dir, "work"),
        "--plugin-runtime",
        "quickjs",
      ]),
      launched,
    ]);
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(`console error: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(serve.url);
    await page.getByRole("button", { name: /^Plugins/ }).click();
  });

  after(async () => {
    await browser?.close();
    await serve?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const card = (name: string) => page.getByRole("article", { name, exact: true });

  it("lists the hook files and the Claude Code plugin with what they bring and their errors", async () => {
    const list = page.getByRole("list", { name: "Shell hooks and Claude Code plugins" });
    await expectText(list, ["guard.yaml", "broken.json", "code-review"]);
    await expectText(card("guard.yaml"), [
      "Active",
      "Shell hooks",
      "Global",
      "PreToolUse",
      "Bash",
      "./check.sh",
      'unknown hook event "OnFire" ignored',
    ]);
    await expectText(card("broken.json"), ["Failed", 'field "hooks.Stop"']);
    await expectText(card("code-review"), [
      "Claude Code plugin",
      "Reviews changes",
      "/code-review:review",
      "code-review:house-style",
      "code-review:reviewer",
      "plugin_code-review_notes",
      "code-review:terse",
      "Grep",
    ]);
    await expectText(
      page.locator("header:visible").first(),
      "2 shell hook files · 1 Claude Code plugin",
    );
    assert.deepEqual(problems, []);
  });

  it("has no serious or critical accessibility problems in light or dark (axe-core)", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      const serious = await seriousViolations(page);
      assert.deepEqual(serious, [], `${colorScheme}: ${JSON.stringify(serious, null, 1)}`);
      const shots = process.env["ISLET_SCREENSHOTS"];
      if (shots)
        await page.screenshot({
          path: path.join(shots, `plugins-extensions-${colorScheme}.png`),
          fullPage: true,
        });
    }
  });
});
