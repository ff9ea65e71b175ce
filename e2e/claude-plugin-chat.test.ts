/**
 * A Claude Code plugin (main/extensions/claude/fixtures/code-review, the published format) in the
 * app: the plugin browser shows its commands, skills, agents, hooks and MCP server; in the chat
 * the composer autocompletes `/code-review:review`, and sending it reaches the loopback model with
 * the command's expanded text and only its allowed tools.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";

const FIXTURE = path.join(
  import.meta.dirname,
  "..",
  "main",
  "extensions",
  "claude",
  "fixtures",
  "code-review",
);

/** The fixture's files as home files under plugins/code-review/. */
function fixtureFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of readdirSync(FIXTURE, { recursive: true, withFileTypes: true })) {
    if (!rel.isFile()) continue;
    const full = path.join(rel.parentPath, rel.name);
    out[path.join("plugins", "code-review", path.relative(FIXTURE, full))] = readFileSync(
      full,
      "utf8",
    );
  }
  return out;
}

describe("a Claude Code plugin in the app", { skip: skipChat, timeout: 90_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig({ homeFiles: fixtureFiles() });
  });
  after(async () => {
    await rig?.close();
  });

  it("the composer completes /code-review:review and the model gets its expanded text", async () => {
    const { page, model } = rig;
    const composer = rig.composer();
    await composer.focus();
    await page.keyboard.type("/code-review:r");
    const menu = page.getByRole("listbox", { name: "Slash commands" });
    await expectText(menu, ["/code-review:review [focus]", "Review the current changes"]);
    const option = menu.getByRole("option", { name: /code-review:review/ });
    assert.equal(await option.getAttribute("aria-selected"), "true");
    await page.keyboard.press("Tab");
    assert.equal(await composer.inputValue(), "/code-review:review ");
    await page.keyboard.type("security");
    const before = model.chatRequests.length;
    model.push({ text: ["Reviewed for security."] });
    await page.keyboard.press("Enter");
    await expectText(
      page.getByRole("region", { name: "Conversation" }),
      "Reviewed for security.",
      15_000,
    );
    const sent = model.chatRequests[before];
    assert.ok(sent, "the model was called");
    assert.match(sent.raw, /Review the changes in this repository\. Focus on: security/);
    const offered = ((sent.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
      (t) => t.function.name,
    );
    // allowed-tools: Bash(git diff:*), Read pre-approves those; as in Claude Code it takes no
    // tool away.
    assert.ok(
      ["Bash", "Read", "Patch", "Skill"].every((t) => offered.includes(t)),
      offered.join(),
    );
    assert.deepEqual(rig.problems, []);
  });

  it("the plugin browser shows its commands, skills, agents, hooks and MCP server", async () => {
    const { page } = rig;
    await page.getByRole("button", { name: /^Plugins/ }).click();
    const card = page.getByRole("article", { name: "code-review", exact: true });
    await expectText(card, [
      "Claude Code plugin",
      "/code-review:review",
      "/code-review:blame-line",
      "code-review:house-style",
      "code-review:reviewer",
      "PreToolUse",
      "Grep",
      "plugin_code-review_notes",
    ]);
    assert.deepEqual(rig.problems, []);
  });
});
