/**
 * The plugin browser's MCP servers in Chromium against a real `islet serve` and a real MCP server
 * (server-everything over stdio, from config/mcp/): listed before it starts, started with the
 * keyboard, its tools shown, disabled and enabled again, live through `mcp/changed`; axe-clean in
 * light and dark, with no console error and no request leaving 127.0.0.1.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { EVERYTHING } from "../main/mcp/testing/servers.ts";
import {
  BUILT_PAGE,
  CHROMIUM_ARGS,
  expectText,
  findChromium,
  startServe,
  type Serve,
} from "./support/browser.ts";
import { seriousViolationsLightAndDark, watchedPage } from "./support/page.ts";
import { serveOnly } from "./support/target.ts";

const browserBinary = findChromium();
const skip = serveOnly("drives islet serve's page in Chromium");

describe("plugin browser: MCP servers", { skip, timeout: 90_000 }, () => {
  let dir: string;
  let serve: Serve;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  before(async () => {
    assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
    dir = await mkdtemp(path.join(tmpdir(), "islet-mcp-browser-"));
    const home = path.join(dir, "home");
    await mkdir(path.join(home, "config", "mcp"), { recursive: true });
    await mkdir(path.join(dir, "project"), { recursive: true });
    await writeFile(
      path.join(home, "config", "mcp", "everything.yaml"),
      `command: ${JSON.stringify(process.execPath)}\nargs: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
    );
    [serve, browser] = await Promise.all([
      startServe(["--home", home, "--workdir", path.join(dir, "project")]),
      chromium.launch({
        executablePath: (browserBinary as { path: string }).path,
        args: CHROMIUM_ARGS,
      }),
    ]);
    ({ page, problems } = await watchedPage(browser));
    await page.goto(serve.url);
    await page.getByRole("button", { name: /^Plugins/ }).click();
  });

  after(async () => {
    await browser?.close();
    await serve?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const server = () => page.getByRole("article", { name: "everything", exact: true });

  it("lists the server before it starts, starts it from the keyboard and shows its tools", async () => {
    await expectText(page.getByRole("region", { name: /MCP servers/ }), ["MCP servers", "1"]);
    await expectText(server(), ["Not started", "stdio", "everything.yaml"]);
    const start = server().getByRole("button", { name: "Start everything" });
    await start.focus();
    await page.keyboard.press("Enter");
    await expectText(
      server(),
      ["Running", "mcp__everything__echo", "mcp__everything__get-sum"],
      30_000,
    );
    const tools = await server().getByRole("list", { name: "Tools of everything" }).innerText();
    assert.match(tools, /mcp__everything__echo/);
  });

  it("has no serious accessibility problems in light or dark (axe-core)", async () => {
    // ISLET_SCREENSHOTS=DIR keeps the section as DIR/mcp-servers.png.
    const shots = process.env["ISLET_SCREENSHOTS"];
    if (shots)
      await page
        .getByRole("region", { name: /MCP servers/ })
        .screenshot({ path: path.join(shots, "mcp-servers.png") });
    const found = await seriousViolationsLightAndDark(page);
    assert.deepEqual(found, { light: [], dark: [] }, JSON.stringify(found, null, 1));
  });

  it("disables the server (its tools go) and enables it again", async () => {
    await server().getByRole("button", { name: "Disable everything" }).click();
    await expectText(server(), ["Disabled"], 15_000);
    assert.equal(await server().getByRole("list", { name: "Tools of everything" }).count(), 0);
    await server().getByRole("button", { name: "Enable everything" }).click();
    await expectText(server(), ["Running", "mcp__everything__echo"], 30_000);
    assert.deepEqual(problems, []);
  });
});
