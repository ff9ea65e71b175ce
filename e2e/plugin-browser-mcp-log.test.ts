/**
 * An MCP server's Log disclosure in Chromium against a real `islet serve` and a real stdio server
 * that writes to stderr and dies at start: opened by keyboard before it starts (nothing yet), it
 * fills when the server's state changes (no reopening), newest line last and scrolled there,
 * shows exactly the engine's `mcp/log` lines (nothing more: not the server's env), copies them.
 * Also the shared select in Settings (the default agent, picked by keyboard). axe-clean in light
 * and dark. With ISLET_SCREENSHOTS=DIR: DIR/mcp-log-{light,dark}.png and DIR/agent-picker.png.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
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
import { seriousViolationsLightAndDark, watchedPage } from "./support/page.ts";
import { bridgeCall } from "./support/sessions.ts";
import { serveOnly } from "./support/target.ts";

const browserBinary = findChromium();
const skip = serveOnly("drives islet serve's page in Chromium");
const SHOTS = process.env["ISLET_SCREENSHOTS"];
const SECRET = "sk-e2e-never-shown-4242";

// Says 30 lines of progress on stderr, then why it cannot start, and exits before speaking MCP.
const DYING_SERVER = `
for (let i = 1; i <= 30; i++) process.stderr.write("warming cache " + i + "/30\\n");
process.stderr.write("fatal: cannot reach the database at localhost:5999\\n");
process.exit(1);
`;

describe("plugin browser: an MCP server's log", { skip, timeout: 120_000 }, () => {
  let dir: string;
  let serve: Serve;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  before(async () => {
    assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
    dir = await mkdtemp(path.join(tmpdir(), "islet-mcp-log-"));
    const home = path.join(dir, "home");
    await mkdir(path.join(home, "config", "mcp"), { recursive: true });
    await mkdir(path.join(home, "config", "agents"), { recursive: true });
    await mkdir(path.join(dir, "project"), { recursive: true });
    const script = path.join(dir, "dying-server.mjs");
    await writeFile(script, DYING_SERVER);
    await writeFile(
      path.join(home, "config", "mcp", "dbtools.yaml"),
      `command: ${JSON.stringify(process.execPath)}\nargs: [${JSON.stringify(script)}]\n` +
        `env:\n  DB_TOKEN: ${JSON.stringify(SECRET)}\n`,
    );
    await writeFile(
      path.join(home, "config", "agents", "reviewer.md"),
      "---\ndescription: Reviews code\n---\nYou review.\n",
    );
    [serve, browser] = await Promise.all([
      startServe(["--home", home, "--workdir", path.join(dir, "project")]),
      chromium.launch({
        executablePath: (browserBinary as { path: string }).path,
        args: CHROMIUM_ARGS,
      }),
    ]);
    ({ page, problems } = await watchedPage(browser, {
      permissions: ["clipboard-read", "clipboard-write"],
    }));
    await page.goto(serve.url);
    await page.getByRole("button", { name: /^Plugins/ }).click();
  });

  after(async () => {
    await browser?.close();
    await serve?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const server = () => page.getByRole("article", { name: "dbtools", exact: true });
  const logView = () => server().getByRole("log", { name: "Log of dbtools" });

  it("opens by keyboard before the server starts and says there is nothing yet", async () => {
    await expectText(server(), ["Not started", "stdio", "dbtools.yaml"]);
    const summary = server().locator("summary", { hasText: "Log" });
    await summary.focus();
    await page.keyboard.press("Enter");
    await expectText(server(), ["Nothing yet"]);
    assert.equal(await logView().count(), 0);
  });

  it("fills as the server's state changes: its stderr, newest last and scrolled into view", async () => {
    await server().getByRole("button", { name: "Start dbtools" }).click();
    // No reopening: a status change (restarting, failed) reads the log again.
    await expectText(logView(), ["warming cache 1/30", "fatal: cannot reach the database"], 30_000);
    await expectText(server(), ["Failed", "gave up"], 60_000);
    // Once failed the log stops growing: what shows is exactly what the engine keeps.
    const { lines } = (await bridgeCall(serve, "mcp/log", { name: "dbtools" })) as {
      lines: string[];
    };
    await page.waitForFunction(
      (n) =>
        document.querySelector("[aria-label='Log of dbtools']")?.textContent?.split("\n").length ===
        n,
      lines.length,
    );
    const shown = await logView().textContent();
    assert.equal(shown, lines.join("\n"));
    assert.match(lines.at(-1) ?? "", /fatal: cannot reach the database|lost|exit/);
    assert.ok(!shown?.includes(SECRET), "the server's env is not shown");
    assert.ok(!(await server().innerText()).includes(SECRET));
    const scroll = await logView().evaluate((el) => ({
      top: el.scrollTop,
      height: el.scrollHeight,
      client: el.clientHeight,
    }));
    assert.ok(scroll.height > scroll.client, "enough lines to scroll");
    assert.ok(scroll.top + scroll.client >= scroll.height - 2, "scrolled to the newest line");
  });

  it("copies the log from the keyboard", async () => {
    const copy = server().getByRole("button", { name: "Copy the log of dbtools" });
    await logView().focus();
    await page.keyboard.press("Tab");
    assert.ok(await copy.evaluate((el) => el === document.activeElement), "Tab reaches Copy");
    await page.keyboard.press("Enter");
    await expectText(server().getByRole("status"), ["Copied"]);
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await logView().textContent());
    if (SHOTS) {
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme });
        await server().screenshot({ path: path.join(SHOTS, `mcp-log-${colorScheme}.png`) });
      }
      await page.emulateMedia({ colorScheme: null });
    }
    const found = await seriousViolationsLightAndDark(page);
    assert.deepEqual(found, { light: [], dark: [] }, JSON.stringify(found, null, 1));
  });

  it("closes again and the shared select still picks the default agent by keyboard", async () => {
    await server().locator("summary", { hasText: "Log" }).click();
    assert.equal(await logView().count(), 0);
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    const picker = page.getByRole("combobox", { name: "Agent for new chats" });
    await picker.waitFor();
    // The chat behind Settings stays mounted (hidden) with a picker of the same name: wait for
    // the one on screen, which may still be loading when the hidden one is ready.
    await page.waitForFunction(() => {
      const el = [...document.querySelectorAll("select.picker-select")].find(
        (s) =>
          s.closest("label")?.textContent?.includes("Agent for new chats") &&
          !s.closest("[hidden]"),
      ) as HTMLSelectElement | undefined;
      return el !== undefined && !el.disabled && el.options.length > 1;
    });
    const before = await picker.inputValue();
    const options = await picker.locator("option").allTextContents();
    assert.ok(options.includes("reviewer"), options.join(", "));
    const at = options.indexOf(before);
    const down = at < options.length - 1;
    const want = options[down ? at + 1 : at - 1];
    await picker.focus();
    await page.keyboard.press(down ? "ArrowDown" : "ArrowUp");
    // The select follows the engine: it shows the pick once agents/list says so.
    await page.waitForFunction(
      (w) => (document.activeElement as HTMLSelectElement | null)?.value === w,
      want,
    );
    // Saved through the bridge: a fresh client sees it.
    for (let i = 0; i < 50; i++) {
      const r = (await bridgeCall(serve, "agents/list", {})) as { current: string };
      if (r.current === want) break;
      assert.ok(i < 49, `agents/list still says ${r.current}, not ${want}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    if (SHOTS)
      await picker.locator("xpath=ancestor::div[@class='picker']").screenshot({
        path: path.join(SHOTS, "agent-picker.png"),
      });
    const found = await seriousViolationsLightAndDark(page);
    assert.deepEqual(found, { light: [], dark: [] }, JSON.stringify(found, null, 1));
    assert.deepEqual(problems, []);
  });
});
