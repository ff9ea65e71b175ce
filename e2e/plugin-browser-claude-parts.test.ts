/**
 * The plugin browser in Chromium against a real `islet serve`: a Claude Code plugin's card lists
 * each part with its state — loaded ones as chips; a broken command failed with why, a language
 * server without file extensions failed with why; its MCP server listed (its start, and a
 * failure's stderr, show once a conversation starts it: `plugins show` and the MCP panel). A
 * second copy of a plugin, from a marketplace pack that carries it too, shows as not loaded and
 * says which copy loads.
 * Screenshots at 1400 and 900 px, light and dark, when ISLET_SCREENSHOTS names a folder.
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
import { serveOnly } from "./support/target.ts";
import { seriousViolations } from "./support/page.ts";

const browserBinary = findChromium();
const skip = serveOnly("starts its own islet serve with a prepared home");
const DIES = `console.error("npm error could not determine executable to run"); process.exit(1);`;

const PLUGIN: Record<string, string> = {
  ".claude-plugin/plugin.json": JSON.stringify({
    name: "toolkit",
    description: "Review helpers in the shape of a marketplace plugin",
    lspServers: {
      go: { command: "gopls", extensionToLanguage: { ".go": "go" } },
      rust: { command: "rust-analyzer" },
    },
  }),
  "commands/review.md": "---\ndescription: Review\n---\nReview $0.\n",
  "commands/broken.md": "---\nallowed-tools: 7\n---\nx\n",
  "skills/writing-rules/SKILL.md": "---\nname: Writing Rules\ndescription: Rules\n---\nWrite.\n",
  "agents/simplifier.md": "---\nname: simplifier\ndescription: Simplifies\n---\nSimplify.\n",
  ".mcp.json": JSON.stringify({
    mcpServers: { tickets: { command: process.execPath, args: ["-e", DIES] } },
  }),
};

/** "notes" twice: by hand in the plugins folder, and in a marketplace pack that carries it too. */
const NOTES: Record<string, string> = {
  "notes/.claude-plugin/plugin.json": JSON.stringify({ name: "notes", description: "Notes" }),
  "notes/commands/jot.md": "Jot $ARGUMENTS\n",
  "market/.origin.yaml": `url: file:///market.git\ncommit: ${"b".repeat(40)}\ninstalled_at: 2026-01-01T00:00:00.000Z\nvendored: true\n`,
  "market/plugins/notes/.claude-plugin/plugin.json": JSON.stringify({
    name: "notes",
    description: "Notes, as the marketplace carries them",
  }),
  "market/plugins/notes/commands/jot.md": "Jot $ARGUMENTS\n",
};

describe(
  "plugin browser: a Claude Code plugin's parts and their states",
  { skip, timeout: 90_000 },
  () => {
    let dir: string;
    let serve: Serve;
    let browser: Browser;
    let page: Page;
    const problems: string[] = [];

    before(async () => {
      assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
      dir = await mkdtemp(path.join(tmpdir(), "islet-browser-parts-"));
      const home = path.join(dir, "home");
      const files = {
        ...Object.fromEntries(Object.entries(PLUGIN).map(([rel, t]) => [`toolkit/${rel}`, t])),
        ...NOTES,
      };
      for (const [rel, text] of Object.entries(files)) {
        const file = path.join(home, "plugins", rel);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, text);
      }
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
      page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
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

    const card = () => page.getByRole("article", { name: "toolkit", exact: true });

    it("shows each part with its state and why", async () => {
      await expectText(card(), [
        "Claude Code plugin",
        "/toolkit:review",
        "toolkit:writing-rules",
        "toolkit:simplifier",
        "/toolkit:broken",
        "Failed",
        "allowed-tools:",
        "go (gopls)",
        "rust (rust-analyzer)",
        "no extensionToLanguage: no file would reach it",
        "plugin_toolkit_tickets",
      ]);
      assert.deepEqual(problems, []);
    });

    it("shows a second copy of a plugin as not loaded, naming the copy that loads", async () => {
      const copies = page.getByRole("article", { name: "notes", exact: true });
      await expectText(copies.nth(0), ["Active", "/notes:jot"]);
      await expectText(copies.nth(1), [
        "Not loaded",
        "Another copy loads",
        "The copy in the global folder notes loads instead",
        "Notes, as the marketplace carries them",
      ]);
      assert.deepEqual(problems, []);
    });

    it("has no serious accessibility problem at 1400 and 900 px, light and dark", async () => {
      const shots = process.env["ISLET_SCREENSHOTS"];
      for (const width of [1400, 900]) {
        await page.setViewportSize({ width, height: 900 });
        for (const colorScheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme });
          const serious = await seriousViolations(page);
          assert.deepEqual(
            serious,
            [],
            `${width} ${colorScheme}: ${JSON.stringify(serious, null, 1)}`,
          );
          if (shots) {
            await card().screenshot({
              path: path.join(shots, `plugins-claude-parts-${width}-${colorScheme}.png`),
            });
            await page
              .getByRole("article", { name: "notes", exact: true })
              .nth(1)
              .screenshot({
                path: path.join(shots, `plugins-claude-shadowed-${width}-${colorScheme}.png`),
              });
          }
        }
      }
    });
  },
);
