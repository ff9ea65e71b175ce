/**
 * Settings in Chromium against a real `islet serve`: theme, a tool approval policy and a new
 * provider with its API key (tested against a loopback fake OpenAI server) are set from the
 * keyboard and mouse, survive a restart of `islet serve`, and the key is in no plain file under
 * the home and never in the page. axe finds nothing serious in light or dark. With
 * ISLET_SCREENSHOTS=DIR the screen is saved as DIR/settings-light.png and settings-dark.png.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import {
  startFakeOllama,
  startFakeOpenAI,
  type FakeServer,
} from "../main/providers/testing/index.ts";
import {
  BUILT_PAGE,
  CHROMIUM_ARGS,
  expectText,
  findChromium,
  startServe,
  type Serve,
} from "./support/browser.ts";
import { serveOnly } from "./support/target.ts";
import { seriousViolations, watchedPage } from "./support/page.ts";
import { writeHome } from "./support/sessions.ts";

const browserBinary = findChromium();
const skip = serveOnly(
  "opens a second browser tab, restarts islet serve and reads its sealed key file",
);
const SECRET = "sk-e2e-secret-90210";
const SHOTS = process.env["ISLET_SCREENSHOTS"];

function plainFilesWith(dir: string, needle: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .filter((f) => readFileSync(f).includes(needle));
}

describe("settings", { skip, timeout: 120_000 }, () => {
  let dir: string;
  let home: string;
  let local: FakeServer;
  let cloud: FakeServer;
  let serve: Serve;
  let browser: Browser;
  let page: Page;
  let problems: string[];

  const open = async () => {
    ({ page, problems } = await watchedPage(browser));
    await page.goto(serve.url);
    await page.getByRole("button", { name: "Settings", exact: true }).click();
    await page.getByRole("heading", { name: "Providers" }).waitFor({ timeout: 20_000 });
  };

  before(async () => {
    assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
    dir = await mkdtemp(path.join(tmpdir(), "islet-e2e-settings-"));
    home = path.join(dir, "home");
    local = await startFakeOllama([], { models: [{ name: "small:1b" }] });
    cloud = await startFakeOpenAI([], { models: ["cloud-large", "cloud-small"] });
    await writeHome(home, local.url);
    [serve, browser] = await Promise.all([
      startServe(["--home", home, "--workdir", dir]),
      chromium.launch({
        executablePath: (browserBinary as { path: string }).path,
        args: CHROMIUM_ARGS,
      }),
    ]);
    await open();
  });

  after(async () => {
    await browser?.close();
    await serve?.stop();
    await local?.close();
    await cloud?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const theme = () => page.evaluate(() => document.documentElement.dataset["theme"] ?? "system");

  it("applies the theme at once, over the system's preference", async () => {
    await page.emulateMedia({ colorScheme: "light" });
    const group = page.getByRole("radiogroup", { name: "Theme" });
    await group.getByRole("radio", { name: "System" }).focus();
    await page.keyboard.press("ArrowRight"); // Light
    await page.keyboard.press("ArrowRight"); // Dark
    await page.waitForFunction(() => document.documentElement.dataset["theme"] === "dark");
    // Once the engine's answers are in, it is still dark (no flip back to the earlier choice).
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(await theme(), "dark");
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.notEqual(bg, "rgb(247, 248, 250)", "the dark background, although the system is light");
  });

  it("another window follows the theme live", async () => {
    const other = await watchedPage(browser);
    await other.page.goto(serve.url);
    await other.page.waitForFunction(() => document.documentElement.dataset["theme"] === "dark");
    await page
      .getByRole("radiogroup", { name: "Theme" })
      .getByText("Light", { exact: true })
      .click();
    await other.page.waitForFunction(() => document.documentElement.dataset["theme"] === "light");
    await page
      .getByRole("radiogroup", { name: "Theme" })
      .getByText("Dark", { exact: true })
      .click();
    await other.page.waitForFunction(() => document.documentElement.dataset["theme"] === "dark");
    assert.deepEqual(other.problems, []);
    await other.context.close();
  });

  it("sets a tool approval policy", async () => {
    await page
      .getByRole("combobox", { name: "Bash: when the agent calls it" })
      .selectOption("allow");
    await expectText(page.getByRole("row", { name: /Bash/ }), "changed");
  });

  it("adds a provider: tests the connection, stores the key, shows only that it is set", async () => {
    await page.getByRole("button", { name: "Add provider" }).click();
    const form = page.getByRole("form", { name: "Add a provider" });
    await form.getByLabel("Name").fill("cloud");
    await form.getByLabel("Base URL").fill(cloud.url);
    await form.getByLabel("API key").fill(SECRET);
    await form.getByRole("button", { name: "Test connection" }).click();
    await expectText(form, "Connected to");
    await expectText(form, "2 models");
    for (const t of ["Light", "Dark"] as const) {
      await page.getByRole("radiogroup", { name: "Theme" }).getByText(t, { exact: true }).click();
      assert.deepEqual(await seriousViolations(page), [], `the open form, ${t}`);
    }
    await form.getByRole("button", { name: "Add provider" }).click();
    const row = page.locator(".provider", { hasText: "cloud" });
    await expectText(row, ["OpenAI-compatible", cloud.url, "Key set"]);
    const asked = cloud.requests.filter((r) => r.path === "/v1/models").at(-1);
    assert.equal(asked?.headers.authorization, `Bearer ${SECRET}`);
  });

  it("plugin runtime and unsafe mode: saved, with a warning and a restart note", async () => {
    const runtime = page.getByRole("radiogroup", { name: "Sandbox runtime" });
    await runtime.getByText("QuickJS", { exact: true }).click();
    await expectText(page.locator("#plugins-settings"), "Restart Islet to apply");
    await page.getByRole("switch", { name: "Unsafe mode" }).check();
    await expectText(
      page.locator("#plugins-settings"),
      "Unsafe mode lets plugins run programs as you",
    );
    // Saved once the engine has answered (the switch shows the change at once).
    const file = path.join(home, "config", "features", "plugins.yaml");
    const saved = () => (existsSync(file) ? readFileSync(file, "utf8") : "");
    for (let i = 0; i < 100 && !/unsafe: true/.test(saved()); i++)
      await new Promise((r) => setTimeout(r, 50));
    assert.match(saved(), /runtime: quickjs/);
    assert.match(saved(), /unsafe: true/);
  });

  it("has no serious or critical accessibility problems in light or dark (axe-core)", async () => {
    for (const t of ["Light", "Dark"] as const) {
      await page.getByRole("radiogroup", { name: "Theme" }).getByText(t, { exact: true }).click();
      await page.waitForFunction(
        (want) => document.documentElement.dataset["theme"] === want,
        t.toLowerCase(),
      );
      assert.deepEqual(await seriousViolations(page), [], t);
      if (SHOTS) {
        await mkdir(SHOTS, { recursive: true });
        const view = page.locator("main .view");
        await view.evaluate((el) => el.scrollTo(0, 0));
        await page.screenshot({
          path: path.join(SHOTS, `settings-${t.toLowerCase()}.png`),
        });
        await view.evaluate((el) => el.scrollTo(0, el.scrollHeight));
        await page.screenshot({
          path: path.join(SHOTS, `settings-${t.toLowerCase()}-policies.png`),
        });
        await view.evaluate((el) => el.scrollTo(0, 0));
      }
    }
  });

  it("everything is still there after islet serve restarts; the key is in no plain file", async () => {
    assert.deepEqual(problems, []);
    await page.context().close();
    await serve.stop();
    serve = await startServe(["--home", home, "--workdir", dir]);
    await open();
    await page.waitForFunction(() => document.documentElement.dataset["theme"] === "dark");
    assert.equal(
      await page
        .getByRole("radiogroup", { name: "Theme" })
        .getByRole("radio", { name: "Dark" })
        .isChecked(),
      true,
    );
    assert.equal(
      await page.getByRole("combobox", { name: "Bash: when the agent calls it" }).inputValue(),
      "allow",
    );
    await expectText(page.locator(".provider", { hasText: "cloud" }), "Key set");
    assert.equal(await page.getByRole("switch", { name: "Unsafe mode" }).isChecked(), true);
    assert.deepEqual(plainFilesWith(home, SECRET), []);
    assert.doesNotMatch(await page.content(), new RegExp(SECRET));
    await page.getByRole("button", { name: "Edit cloud" }).click();
    assert.equal(await page.getByLabel("API key").inputValue(), "", "the key field starts empty");
    assert.deepEqual(problems, []);
  });
});
