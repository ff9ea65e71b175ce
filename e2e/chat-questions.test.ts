/**
 * The engine's own questions in the page: a host with no terminal or native dialog of its own
 * asks every window, and the page shows them as a modal dialog (here a plugin's permission
 * request) that the keyboard can answer; axe-core finds no serious problem in it.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { openBridgeHost, type BridgeHost } from "../main/bridge/host.ts";
import { tempDir, type TempDir } from "../main/code-plugins/loader/testing.ts";
import { startServer, type RunningServer } from "../main/serve/server.ts";
import { BUILT_PAGE, CHROMIUM_ARGS, expectText, findChromium } from "./support/browser.ts";
import { serveOnly } from "./support/target.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";

const browserBinary = findChromium();
const skip = serveOnly("runs the engine in the test process behind islet serve's server");

describe("chat: the engine's questions as a modal dialog", { skip, timeout: 90_000 }, () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  before(async () => {
    assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\``);
    dirs = tempDir("islet-chat-questions-");
    dirs.write({
      "home/plugins/weather/plugin.yaml":
        'description: "Weather"\npermissions:\n  network: [{ host: api.weather.example, reason: "fetches the forecast" }]\n',
      "home/plugins/weather/index.ts": "export function beforeChat() { return undefined; }\n",
      "work/.keep": "",
    });
    // No question port of its own: the engine's questions go to every window.
    host = await openBridgeHost({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      plugins: { pluginRuntime: "quickjs" },
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
    server = await startServer({
      service: host.service,
      port: 0,
      rendererDir: path.dirname(BUILT_PAGE),
    });
    browser = await chromium.launch({
      executablePath: (browserBinary as { path: string }).path,
      args: CHROMIUM_ARGS,
    });
    const context = await browser.newContext();
    await context.route(
      (url) => !url.href.startsWith("http://127.0.0.1") && !url.href.startsWith("ws://127.0.0.1"),
      (route) => {
        problems.push(`outside request: ${route.request().url()}`);
        return route.abort();
      },
    );
    page = await context.newPage();
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    page.on("pageerror", (e) => problems.push(e.message));
    await page.goto(server.url);
    await page.getByRole("textbox", { name: "Message" }).waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.close();
    await host?.close();
    dirs?.remove();
  });

  it("asks in a modal dialog; the keyboard answers; the answer takes effect", async () => {
    const settled = host.engine.askPluginPermissions();
    const dialog = page.getByRole("dialog", { name: "Plugin permissions" });
    await expectText(dialog, [
      "The plugin weather asks for:",
      "api.weather.example",
      "fetches the forecast",
    ]);
    // The safe answer has the focus; the rest of the page is inert while it is open.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Deny");
    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Grant");
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden" });
    await settled;
    assert.deepEqual(
      host.engine.consent.permissionsOf("weather").map((p) => [p.target, p.status]),
      [["api.weather.example", "granted"]],
    );
    assert.deepEqual(problems, []);
  });
});
