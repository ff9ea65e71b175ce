/**
 * The plugin browser in Chromium against a real `islet serve` (QuickJS backend): what a person
 * sees — the backend and why, each plugin's card, the broken ones' errors — and that it follows
 * hot reloads and the Reload button live, with no console error, no CSP violation and no request
 * leaving 127.0.0.1.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
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
const skip = serveOnly("runs two islet serve processes and opens pages without the token");

async function writePlugin(dir: string, files: Record<string, string>): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
}

const GREETER_V1 = `export function beforeChat() { return { notice: "hello" }; }
export function afterResponse() { return undefined; }
`;
const GREETER_V2 = `${GREETER_V1}export function onError() { return undefined; }
`;

describe("plugin browser", { skip, timeout: 60_000 }, () => {
  let dir: string;
  let home: string;
  let serve: Serve;
  let emptyServe: Serve;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  /** Console errors, page errors, CSP violations and outside requests seen by `page`. */
  const problems: string[] = [];

  before(async () => {
    assert.ok(
      existsSync(BUILT_PAGE),
      `${BUILT_PAGE} is missing: run \`npm run build\` before the e2e tests (.ci/run does)`,
    );
    dir = await mkdtemp(path.join(tmpdir(), "islet-plugin-browser-"));
    home = path.join(dir, "home");
    const workdir = path.join(dir, "project");
    await writePlugin(path.join(home, "plugins", "greeter"), {
      "plugin.yaml": `description: Greets the model at the start of a session
condition: turns_lt:3
once: true
sdk: "0.1.0"
permissions:
  network: [{ host: api.example.com, reason: "posts the greeting" }]
`,
      "index.ts": GREETER_V1,
    });
    await writePlugin(path.join(workdir, ".islet", "plugins", "tools", "notes"), {
      "plugin.yaml":
        "description: Keeps notes for the model\nopt_in: true\n" +
        "permissions:\n  paths: [{ path: notes, write: true, reason: keeps notes }]\n",
      "index.ts": `export function schema() {
  return { name: "Notes", description: "Keep a note", parameters: { type: "object", properties: {} } };
}
export function execute() { return "noted"; }
export const paths = "not a function";
export function command() { return { name: "notes", hints: "[text]" }; }
export function executeCommand() { return "notes"; }
`,
    });
    await writePlugin(path.join(home, "plugins", "broken"), {
      "plugin.yaml": "description: Does not build\n",
      "index.ts": "export function beforeChat( { return 1\n",
    });
    await writePlugin(path.join(home, "plugins", "badmanifest"), {
      "plugin.yaml": "description: [unclosed\n",
      "index.ts": "export function beforeChat() {}\n",
    });
    await mkdir(path.join(dir, "empty-home"), { recursive: true });

    const launched = chromium.launch({
      executablePath: (browserBinary as { path: string }).path,
      args: CHROMIUM_ARGS,
    });
    [serve, emptyServe, browser] = await Promise.all([
      startServe(["--home", home, "--workdir", workdir, "--plugin-runtime", "quickjs"]),
      startServe(["--home", path.join(dir, "empty-home"), "--workdir", dir]),
      launched,
    ]);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.route(
      (url) => !url.href.startsWith("http://127.0.0.1") && !url.href.startsWith("ws://127.0.0.1"),
      (route) => {
        problems.push(`outside request: ${route.request().url()}`);
        return route.abort();
      },
    );
    page = await context.newPage();
    await page.addInitScript(() =>
      document.addEventListener("securitypolicyviolation", (e) =>
        console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
      ),
    );
    page.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning")
        problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    await page.goto(serve.url);
    await page.getByRole("button", { name: /^Plugins/ }).click(); // the app opens on the chat
  });

  after(async () => {
    await browser?.close();
    await Promise.all([serve?.stop(), emptyServe?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const card = (name: string) => page.getByRole("article", { name, exact: true });

  it("says which sandbox backend runs the plugins, and why", async () => {
    const banner = page.getByRole("region", { name: "Sandbox backend" });
    await expectText(banner, [
      "Plugins run in QuickJS",
      "chosen by --plugin-runtime",
      "WebAssembly",
    ]);
    await banner.getByText("About the two sandbox backends").click();
    await expectText(banner, ["isolated-vm", "One V8 isolate per plugin"]);
    await expectText(page.getByRole("heading", { level: 1 }), "Plugins");
  });

  it("shows each plugin with its status, source, hooks, condition, once, tool and command", async () => {
    await expectText(card("greeter"), [
      "Active",
      "Global",
      "Greets the model at the start of a session",
      "Before the model",
      "beforeChat",
      "After the response",
      "afterResponse",
      "turns_lt:3",
      "Runs once per session",
      "not fired yet",
      "SDK compatible",
      /\d+(\.\d)? KB heap/,
      // Asked for, and nobody could grant it (serve without a terminal or --yes).
      "network api.example.com",
      "not granted yet",
    ]);
    await expectText(card("notes"), [
      "Active",
      "Project",
      "Keeps notes for the model",
      "Notes",
      "opt-in",
      "/notes [text]",
      // A project plugin in a folder nobody trusted: its request is not even asked.
      "path notes (write)",
      "held back: folder not trusted",
    ]);
    const names = await page
      .getByRole("list", { name: "Installed plugins" })
      .getByRole("heading")
      .allInnerTexts();
    assert.deepEqual(names, ["broken", "greeter", "notes"]);
    await expectText(
      page.locator("header:visible").first(),
      "3 plugins · 2 active · 1 failed · 1 not loadable",
    );
  });

  it("has no serious or critical accessibility problems in light or dark (axe-core)", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      const serious = await seriousViolations(page);
      assert.deepEqual(serious, [], `${colorScheme}: ${JSON.stringify(serious, null, 1)}`);
      // ISLET_SCREENSHOTS=DIR keeps the screen as DIR/plugins-light.png and plugins-dark.png.
      const shots = process.env["ISLET_SCREENSHOTS"];
      if (shots) await page.screenshot({ path: path.join(shots, `plugins-${colorScheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: "light" });
  });

  it("shows why the broken plugin and the bad manifest did not load", async () => {
    const broken = card("broken");
    await expectText(broken, ["Failed", "Failed to load", "index.ts:1:", 'Expected "}"']);
    const problemsBox = page.getByRole("region", { name: "1 plugin could not be loaded" });
    await expectText(problemsBox, ["badmanifest/plugin.yaml", "invalid YAML"]);
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("button", { name: "Plugins 2 with problems" })
      .waitFor();
  });

  it("updates a card live when its plugin changes on disk (hot reload)", async () => {
    assert.ok(!(await card("greeter").innerText()).includes("onError"));
    await writeFile(path.join(home, "plugins", "greeter", "index.ts"), GREETER_V2);
    await expectText(card("greeter"), ["On errors", "onError"], 8000);
    await expectText(
      page.getByRole("status", { name: "Reload result" }),
      /Hot reload: greeter reloaded in \d+ ms/,
    );
  });

  it("keeps the last good version running after a broken edit, and says so", async () => {
    const file = path.join(home, "plugins", "greeter", "index.ts");
    await writeFile(file, `${GREETER_V2}export function afterResponse( {\n`);
    await expectText(
      card("greeter"),
      ["Active", "Your last edit did not load — the previous version keeps running", "index.ts:"],
      8000,
    );
    await expectText(
      page.getByRole("status", { name: "Reload result" }),
      "Hot reload: greeter did not load",
    );
    await writeFile(file, GREETER_V2);
    await page
      .getByRole("article", { name: "greeter" })
      .getByText("Your last edit did not load")
      .waitFor({ state: "detached", timeout: 8000 });
  });

  it("reloads every plugin with the Reload button and shows the result", async () => {
    await page.getByRole("button", { name: "Reload", exact: true }).click();
    const result = page.getByRole("status", { name: "Reload result" });
    await expectText(
      result,
      ["Reload finished: 2 plugins reloaded, 1 failed", "broken", 'Expected "}"'],
      8000,
    );
    await expectText(card("greeter"), "onError");
    await page.getByRole("button", { name: "Dismiss reload result" }).click();
    await result.waitFor({ state: "detached" });
  });

  it("shows a plugin's warning once: a dismissed warning does not come back on the next reload", async () => {
    const warnings = page.getByRole("list", { name: "Engine warnings" });
    await expectText(warnings, "notes: paths is exported but is not a function");
    await expectText(card("notes"), "paths is exported but is not a function");
    await warnings.getByRole("button", { name: "Dismiss warning" }).click();
    await warnings.waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Reload", exact: true }).click();
    await expectText(page.getByRole("status", { name: "Reload result" }), "Reload finished", 8000);
    assert.equal(await warnings.count(), 0);
    await page.getByRole("button", { name: "Dismiss reload result" }).click();
  });

  it("shows where to put plugins when there are none", async () => {
    const empty = await context.newPage();
    try {
      await empty.goto(emptyServe.url);
      await empty.getByRole("button", { name: /^Plugins/ }).click();
      await expectText(empty.getByRole("main"), [
        "No plugins installed",
        `Put one in ${path.join(dir, "empty-home", "plugins")}`,
        path.join(dir, ".islet", "plugins"),
      ]);
      await expectText(empty.getByRole("region", { name: "Sandbox backend" }), "Plugins run in");
    } finally {
      await empty.close();
    }
  });

  it("refuses the page without its token (401)", async () => {
    const bare = await browser.newPage();
    try {
      const response = await bare.goto(`${serve.origin}/`);
      assert.equal(response?.status(), 401);
      await expectText(bare.locator("body"), "this page needs its access token");
    } finally {
      await bare.close();
    }
  });

  it("keyboard reaches the navigation and the Reload button", async () => {
    await page.reload(); // focus starts from the top again; the app opens on the chat
    await page.getByRole("textbox", { name: "Message" }).waitFor();
    await page.keyboard.press("Tab");
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
    // First the skip link, then the navigation.
    assert.equal(await focused(), "Skip to message box");
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "Chat");
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "Models");
    await page.keyboard.press("Tab");
    assert.match(await focused(), /^Plugins/);
    await page.keyboard.press("Enter");
    await card("greeter").waitFor();
    await page.getByRole("searchbox", { name: "Filter plugins" }).focus();
    // The filter matches names, descriptions, hooks, tools and commands.
    await page.keyboard.type("afterresp");
    const list = page.getByRole("list", { name: "Installed plugins" });
    assert.deepEqual(await list.getByRole("heading").allInnerTexts(), ["greeter"]);
    await page.keyboard.press("Escape");
    assert.deepEqual(await list.getByRole("heading").allInnerTexts(), [
      "broken",
      "greeter",
      "notes",
    ]);
    await page.keyboard.press("Tab");
    assert.equal(await focused(), "Reload");
  });

  it("made no console error, CSP violation or outside request", () => {
    assert.deepEqual(problems, []);
  });

  it("says the connection is lost when the engine stops", async () => {
    await serve.stop();
    await expectText(
      page.getByRole("alert"),
      ["Connection to Islet lost — reconnecting", "islet serve"],
      8000,
    );
    await expectText(page.getByRole("complementary"), "Reconnecting…");
    assert.ok(await page.getByRole("button", { name: "Reload", exact: true }).isDisabled());
  });

  it("says to open the new URL when islet serve comes back with a new token", async () => {
    const port = new URL(serve.url).port;
    serve = await startServe(["--port", port, "--home", home, "--workdir", dir]);
    assert.notEqual(serve.url, page.url(), "a restarted server has a new token");
    await expectText(
      page.getByRole("alert"),
      ["access token is no longer valid", "open the new URL it printed"],
      10_000,
    );
    await expectText(page.getByRole("complementary"), "Disconnected");
  });
});
