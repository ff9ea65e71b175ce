/**
 * A Claude Code marketplace in the Catalog tab, in Chromium against a real `islet serve`, from a
 * loopback git server: its consent dialog lists the plugin it has from another repository as not
 * part of the install; once installed, its card lists that plugin with Install, which asks for
 * that repository (naming the marketplace) and installs it as a pack of its own.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import {
  gitRepos,
  startGitHttp,
  type GitRepos,
  type GitServer,
} from "../main/packs/testing/git-servers.ts";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark } from "./support/page.ts";

describe(
  "catalog: a Claude Code marketplace's plugins from other repositories",
  { skip: skipChat, timeout: 240_000 },
  () => {
    let repos: GitRepos;
    let server: GitServer;
    let rig: ChatRig;
    let page: Page;

    before(async () => {
      repos = await gitRepos();
      server = await startGitHttp(repos.served);
      await repos.create("far-notes", {
        ".claude-plugin/plugin.json": JSON.stringify({ name: "far-notes" }),
        "commands/note.md": "Take a note\n",
      });
      await repos.create("team-market", {
        ".claude-plugin/marketplace.json": JSON.stringify({
          name: "team-market",
          owner: { name: "The team" },
          plugins: [
            { name: "near", source: "./plugins/near", description: "Close by" },
            {
              name: "far-notes",
              description: "Notes from elsewhere",
              source: { source: "url", url: server.url("far-notes") },
            },
          ],
        }),
        "plugins/near/commands/near.md": "Near\n",
      });
      const catalogFile = path.join(repos.root, "catalog.yaml");
      await writeFile(
        catalogFile,
        [
          "packs:",
          "  - name: team-market",
          "    description: The team's Claude Code marketplace.",
          `    url: ${server.url("team-market")}`,
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

    it("the install lists it apart; the card then installs it from its own repository", async () => {
      await page.getByRole("button", { name: "Plugins", exact: true }).click();
      await page.getByRole("tab", { name: "Catalog" }).click();
      await card("team-market").getByRole("button", { name: "Install team-market" }).click();
      const dialog = page.getByRole("dialog", { name: "Install team-market?" });
      await expectText(
        dialog.getByRole("region", { name: "Not part of this install" }),
        ["Each installs on its own", "far-notes", server.url("far-notes")],
        60_000,
      );
      await dialog.getByRole("button", { name: "Install" }).click();
      await expectText(card("team-market"), ["Installed team-market", "near"], 60_000);

      await card("team-market").getByText("1 more plugin it lists").click();
      await card("team-market").getByRole("button", { name: "Install far-notes" }).click();
      const far = page.getByRole("dialog", { name: "Install far-notes?" });
      await expectText(
        far,
        ["The Claude Code marketplace", "lists it", server.url("far-notes")],
        60_000,
      );
      assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
      await far.getByRole("button", { name: "Install" }).click();
      await expectText(card("team-market"), "Installed far-notes", 60_000);
      assert.ok(existsSync(path.join(rig.home, "plugins", "far-notes", "commands", "note.md")));
    });
  },
);
