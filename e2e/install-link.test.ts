/**
 * Install links in Chromium against a real `islet serve` and a loopback git server (smart HTTP):
 * a hostile `/install?…` is one line and fetches nothing; a good one opens the page with a dialog
 * saying a link opened Islet and showing the source, ref and folder, with nothing fetched yet;
 * Cancel there fetches nothing; Download and review leads to the pack's own consent (also saying
 * a link asked), where Cancel installs nothing and Install installs it: the plugin is listed in
 * the plugin browser. axe finds nothing serious. With ISLET_SCREENSHOTS=DIR:
 * DIR/link-{light,dark}.png (1400 px), link-900-{light,dark}.png, link-consent-{light,dark}.png,
 * link-installed-{light,dark}.png and link-refused-{light,dark}.png.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import {
  gitRepos,
  pluginFiles,
  startGitHttp,
  type GitHttpServer,
  type GitRepos,
} from "../main/packs/testing/git-servers.ts";
import { expectText } from "./support/browser.ts";
import { startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";
import { serveOnly } from "./support/target.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];
const skip = serveOnly("opens islet serve's /install?… in the browser");

describe("install links: /install?source=… on islet serve", { skip, timeout: 240_000 }, () => {
  let repos: GitRepos;
  let git: GitHttpServer;
  let rig: ChatRig;
  let page: Page;
  let source: string;

  before(async () => {
    repos = await gitRepos();
    await repos.create("islet-plugin-linked", pluginFiles("tools/linked"));
    git = await startGitHttp(repos.served);
    source = git.url("islet-plugin-linked");
    rig = await startChatRig();
    page = rig.page;
  });

  after(async () => {
    await rig?.close();
    await git?.close();
    await repos?.close();
  });

  const token = () => new URL(rig.serve.url).searchParams.get("token") ?? "";
  const linkUrl = (query: string) => `${rig.serve.origin}/install?token=${token()}&${query}`;
  const good = () =>
    linkUrl(
      `source=${encodeURIComponent(source)}&ref=main&subpath=${encodeURIComponent("tools/linked")}`,
    );
  const pluginsDir = () => path.join(rig.home, "plugins");
  const installed = async () => (existsSync(pluginsDir()) ? await readdir(pluginsDir()) : []);
  const linkDialog = () => page.getByRole("dialog", { name: "Install plugins from a link?" });

  const shoot = async (name: string) => {
    if (!SHOTS) return;
    for (const colorScheme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: path.join(SHOTS, `${name}-${colorScheme}.png`) });
    }
    await page.emulateMedia({ colorScheme: "light" });
  };

  it("a hostile link is one line, and nothing is fetched or written", async () => {
    const before = await installed();
    for (const query of [
      "source=file%3A%2F%2F%2Fetc",
      `source=--upload-pack%3Dtouch%20${encodeURIComponent(path.join(rig.dir, "pwned"))}`,
      `source=${encodeURIComponent(source)}&subpath=..%2F..%2Fx`,
    ]) {
      const response = await page.goto(linkUrl(query));
      assert.equal(response?.status(), 400);
      const text = (await page.locator("body").innerText()).trim();
      assert.match(
        text,
        /^Islet: this install link was refused, nothing was downloaded or installed: (source|subpath): /,
      );
      assert.equal(text.split("\n").length, 1);
    }
    const response = await page.goto(good().replace(token(), "wrong"));
    assert.equal(response?.status(), 401);
    assert.deepEqual(git.requests, []);
    assert.equal(existsSync(path.join(rig.dir, "pwned")), false);
    assert.deepEqual(await installed(), before);
  });

  it("a good link opens the dialog with what it asks for; Cancel fetches nothing", async () => {
    await page.goto(good());
    const dialog = linkDialog();
    await expectText(dialog, ["A link opened Islet", source, "main", "tools/linked"], 30_000);
    assert.equal(new URL(page.url()).hash, "", "the link leaves the address once read");
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
    // Another link while this one is shown cannot swap what the person is reading.
    await page.evaluate(() => (window.location.hash = "#install?source=evil%2Fswapped"));
    await page.waitForFunction(() => window.location.hash === "");
    await new Promise((resolve) => setTimeout(resolve, 500));
    const shown = await expectText(dialog, source);
    assert.doesNotMatch(shown, /evil|swapped/);
    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    if (SHOTS)
      for (const width of [1400, 900]) {
        await page.setViewportSize({ width, height: 820 });
        await shoot(width === 1400 ? "link" : `link-${width}`);
      }
    await page.setViewportSize({ width: 1280, height: 820 });
    await page.keyboard.press("Enter");
    await dialog.waitFor({ state: "hidden" });
    assert.deepEqual(git.requests, [], "nothing was fetched");
    assert.deepEqual(await installed(), []);
  });

  it("Download and review leads to the pack's consent, saying a link asked; Cancel there installs nothing", async () => {
    await page.goto(good());
    await linkDialog()
      .getByRole("button", { name: "Download and review" })
      .click({ timeout: 30_000 });
    const consent = page.getByRole("dialog", { name: "Install linked?" });
    await expectText(
      consent,
      ["A link opened Islet", source, "ref main", "folder tools/linked", "linked"],
      60_000,
    );
    assert.ok(git.requests.length > 0, "fetched once the person asked");
    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    await shoot("link-consent");
    await consent.getByRole("button", { name: "Cancel" }).click();
    await expectText(linkDialog(), "Cancelled — nothing was installed.", 20_000);
    assert.deepEqual(await installed(), []);
    await linkDialog().getByRole("button", { name: "Close" }).click();
    await linkDialog().waitFor({ state: "hidden" });
  });

  it("Install installs it: the plugin is in the plugin browser", async () => {
    await page.goto(good());
    await linkDialog()
      .getByRole("button", { name: "Download and review" })
      .click({ timeout: 30_000 });
    const consent = page.getByRole("dialog", { name: "Install linked?" });
    await consent.getByRole("button", { name: "Install" }).click({ timeout: 60_000 });
    await expectText(linkDialog(), "Installed linked — 1 plugin", 60_000);
    assert.deepEqual(await installed(), ["linked"]);
    await shoot("link-installed");
    await linkDialog().getByRole("button", { name: "Show plugins" }).click();
    await linkDialog().waitFor({ state: "hidden" });
    await expectText(page.locator("main"), ["linked", "linked test plugin"], 20_000);
  });

  it("the refusal of a link the page was handed is one line in a dialog", async () => {
    // A page address made by hand: the engine checks the fragment as it checks a link.
    await page.goto(`${rig.serve.url}#install?source=ext%3A%3Ash%20-c%20touch%25%20%2Ftmp%2Fpwned`);
    const dialog = page.getByRole("dialog", { name: "This link was not opened" });
    await expectText(dialog, ["Nothing was downloaded or installed", "source: "], 30_000);
    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    await shoot("link-refused");
    await dialog.getByRole("button", { name: "Close" }).click();
    await dialog.waitFor({ state: "hidden" });
  });
});
