/**
 * The Catalog tab in Chromium against a real `islet serve`, installing from a loopback git
 * server (smart HTTP): a Cancel at the consent dialog installs nothing; one click and the
 * dialog's Install put the pack in place and its plugin acts on the next turn (the loopback model
 * sees what it added to the system prompt); Remove takes it away live; an install that fails
 * says why on the card. Settings lists each catalog's state. axe finds nothing serious in light
 * or dark. With ISLET_SCREENSHOTS=DIR: DIR/catalog-{light,dark}.png, consent-{light,dark}.png
 * (install) and consent-update-{light,dark}.png.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import {
  gitRepos,
  startGitHttp,
  type GitRepos,
  type GitServer,
  type WorkRepo,
} from "../main/packs/testing/git-servers.ts";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];
const MARKER = "Greet the user like a lighthouse keeper would.";
const GREETER = `export function beforeChat() {
  return { request: { appendSystem: ${JSON.stringify(MARKER)} } };
}
`;

describe(
  "catalog: one-click install from a git server",
  { skip: skipChat, timeout: 240_000 },
  () => {
    let repos: GitRepos;
    let server: GitServer;
    let rig: ChatRig;
    let page: Page;
    let catalogFile: string;
    let pack: WorkRepo;

    before(async () => {
      repos = await gitRepos();
      pack = await repos.create("islet-plugin-greetings");
      await pack.commit("Two plugins", {
        "greeter/plugin.yaml":
          'description: "Greets the user the way a lighthouse keeper would"\n' +
          'permissions:\n  network: [{ host: api.weather.example, reason: "adds the weather to the greeting" }]\n',
        "greeter/index.ts": GREETER,
        "style-guide/plugin.yaml":
          'description: "Reminds the model of the team\'s style guide"\n' +
          'permissions:\n  env: [{ name: STYLE_GUIDE_URL, reason: "where your team keeps its style guide" }]\n',
        "style-guide/index.ts": "export function beforeChat() { return undefined; }\n",
      });
      server = await startGitHttp(repos.served);
      catalogFile = path.join(repos.root, "catalog.yaml");
      await writeFile(
        catalogFile,
        [
          "packs:",
          "  - name: greetings",
          "    description: Greets the user the way a lighthouse keeper would, and minds the style guide.",
          `    url: ${server.url("islet-plugin-greetings")}`,
          "    tags: [greeting, style]",
          "    author: The Islet team",
          "  - name: vanished",
          "    description: A pack whose repository is gone.",
          `    url: ${server.url("islet-plugin-vanished")}`,
          "    tags: [broken]",
          "",
        ].join("\n"),
      );
      rig = await startChatRig({
        homeFiles: { "settings.json": JSON.stringify({ catalogs: [catalogFile] }) },
      });
      page = rig.page;
    });

    after(async () => {
      await rig?.close();
      await server?.close();
      await repos?.close();
    });

    const card = (name: string) => page.getByRole("article", { name, exact: true });
    const installed = () => path.join(rig.home, "plugins", "greetings");

    const openCatalog = async () => {
      await page.getByRole("button", { name: "Plugins", exact: true }).click();
      await page.getByRole("tab", { name: "Catalog" }).click();
      await card("greetings").waitFor();
    };

    /** Sends a prompt; resolves with the system prompt of the request the model got for it. */
    const systemPromptOfNextTurn = async (prompt: string): Promise<string> => {
      await page.getByRole("button", { name: "Chat", exact: true }).click();
      rig.model.push({ text: [`Answer to ${prompt}`] });
      await rig.composer().fill(prompt);
      await page.keyboard.press("Enter");
      await expectText(
        page.getByRole("region", { name: "Conversation" }),
        `Answer to ${prompt}`,
        20_000,
      );
      const body = rig.model.chatRequests.at(-1)?.body as {
        messages: { role: string; content: string }[];
      };
      return body.messages.find((m) => m.role === "system")?.content ?? "";
    };

    it("lists the catalogs' packs, searchable and by tag, with nothing serious for axe", async () => {
      // The tabs work from the keyboard: → moves to the Catalog and keeps the focus on its tab.
      await page.getByRole("button", { name: "Plugins", exact: true }).click();
      await page.getByRole("tab", { name: "Installed" }).focus();
      await page.keyboard.press("ArrowRight");
      await card("greetings").waitFor();
      assert.equal(
        await page.evaluate(
          () =>
            `${document.activeElement?.getAttribute("aria-selected")} ${document.activeElement?.textContent}`,
        ),
        "true Catalog",
      );
      await expectText(card("greetings"), [
        "Greets the user the way a lighthouse keeper would",
        "by The Islet team",
        "greeting",
      ]);
      await expectText(page.locator(".pack-list"), "claude-code-plugins", 5000);
      await page.getByRole("searchbox", { name: "Search the catalog" }).fill("lighthouse");
      assert.equal(await page.locator(".pack-list > li").count(), 1);
      await page.getByRole("searchbox", { name: "Search the catalog" }).fill("");
      await page
        .getByRole("group", { name: "Filter by tag" })
        .getByRole("button", { name: "broken" })
        .click();
      await expectText(page.locator(".pack-list"), "vanished");
      assert.equal(await page.locator(".pack-list > li").count(), 1);
      await page
        .getByRole("group", { name: "Filter by tag" })
        .getByRole("button", { name: "All" })
        .click();
      assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    });

    it("Cancel at the consent dialog (the default, from the keyboard) installs nothing", async () => {
      await card("greetings").getByRole("button", { name: "Install greetings" }).focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog", { name: "Install greetings?" });
      await expectText(
        dialog,
        [
          "2 plugins",
          "greeter",
          "api.weather.example",
          "adds the weather to the greeting",
          "style-guide",
          "STYLE_GUIDE_URL",
          "where your team keeps its style guide",
        ],
        60_000,
      );
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
      assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
      if (SHOTS)
        for (const colorScheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme });
          await page.screenshot({ path: path.join(SHOTS, `consent-${colorScheme}.png`) });
        }
      await page.emulateMedia({ colorScheme: "light" });
      await page.keyboard.press("Enter");
      await dialog.waitFor({ state: "hidden" });
      await expectText(card("greetings"), "Cancelled — nothing was installed.", 20_000);
      assert.equal(existsSync(installed()), false);
    });

    it("one click and Install: the plugin acts on the next turn", async () => {
      assert.doesNotMatch(
        await systemPromptOfNextTurn("Before installing"),
        /like a lighthouse keeper would/,
      );
      await openCatalog();
      await card("greetings").getByRole("button", { name: "Install greetings" }).click();
      const dialog = page.getByRole("dialog", { name: "Install greetings?" });
      await dialog.getByRole("button", { name: "Install" }).click({ timeout: 60_000 });
      await expectText(card("greetings"), ["Installed greetings — 2 plugins", "Installed"], 60_000);
      await expectText(card("greetings"), ["greeter, style-guide"]);
      assert.ok(existsSync(path.join(installed(), "greeter", "plugin.yaml")));
      assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
      if (SHOTS) {
        await card("greetings").evaluate((el) => el.scrollIntoView({ block: "end" }));
        for (const colorScheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme });
          await page.screenshot({ path: path.join(SHOTS, `catalog-${colorScheme}.png`) });
        }
        await page.emulateMedia({ colorScheme: "light" });
      }
      assert.match(
        await systemPromptOfNextTurn("After installing"),
        /like a lighthouse keeper would/,
      );
    });

    it("Update shows the commits, files and new permissions, then swaps the new version in", async () => {
      await pack.commit("Ask about the tides too", {
        "greeter/plugin.yaml":
          'description: "Greets the user the way a lighthouse keeper would"\n' +
          "permissions:\n  network:\n" +
          '    - { host: api.weather.example, reason: "adds the weather to the greeting" }\n' +
          '    - { host: tides.example, reason: "adds the tide times" }\n',
      });
      await openCatalog();
      await card("greetings").getByRole("button", { name: "Update greetings" }).click();
      const dialog = page.getByRole("dialog", { name: "Update greetings?" });
      const text = await expectText(
        dialog,
        ["Ask about the tides too", "greeter/plugin.yaml", /new permissions/i, "tides.example"],
        60_000,
      );
      assert.doesNotMatch(text, /api\.weather\.example/, "only what is new is asked");
      assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Cancel");
      assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
      if (SHOTS)
        for (const colorScheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme });
          await page.screenshot({ path: path.join(SHOTS, `consent-update-${colorScheme}.png`) });
        }
      await page.emulateMedia({ colorScheme: "light" });
      await dialog.getByRole("button", { name: "Update" }).click();
      await expectText(card("greetings"), /Updated [0-9a-f]{7} → [0-9a-f]{7}/, 60_000);
      assert.match(readFileSync(path.join(installed(), "greeter", "plugin.yaml"), "utf8"), /tides/);
      assert.match(
        await systemPromptOfNextTurn("After updating"),
        /like a lighthouse keeper would/,
      );
    });

    it("Remove takes it away live: the next turn no longer has it", async () => {
      await openCatalog();
      await card("greetings").getByRole("button", { name: "Remove greetings" }).click();
      await card("greetings")
        .getByRole("group", { name: "Remove greetings?" })
        .getByRole("button", { name: "Remove" })
        .click();
      await expectText(card("greetings"), "Removed greetings and its 2 plugins.", 30_000);
      await card("greetings").getByRole("button", { name: "Install greetings" }).waitFor();
      assert.equal(existsSync(installed()), false);
      assert.doesNotMatch(
        await systemPromptOfNextTurn("After removing"),
        /like a lighthouse keeper would/,
      );
    });

    it("an install that fails says why on the card, in one line", async () => {
      await openCatalog();
      await card("vanished").getByRole("button", { name: "Install vanished" }).click();
      const alert = card("vanished").getByRole("alert");
      const text = await expectText(alert, ["Install failed", "islet-plugin-vanished"], 60_000);
      assert.equal(
        text
          .trim()
          .split("\n")
          .filter((l) => l.trim()).length,
        2,
        `a title and one line: ${text}`,
      );
      assert.equal(existsSync(path.join(rig.home, "plugins", "vanished")), false);
      assert.deepEqual(rig.problems, []);
    });

    it("Settings lists each catalog with its state", async () => {
      await page.getByRole("button", { name: "Settings", exact: true }).click();
      const section = page.getByRole("region", { name: "Plugin catalogs" });
      await expectText(section, [catalogFile, "OK · 2 packs", "Default"], 10_000);
      await section
        .getByRole("textbox", { name: "Path or URL of a catalog" })
        .fill("ftp://example.com/c.yaml");
      await section.getByRole("button", { name: "Add catalog" }).click();
      await expectText(section.getByRole("alert"), "expected a file path or an http(s) URL");
    });
  },
);
