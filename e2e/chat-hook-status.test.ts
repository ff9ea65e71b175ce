/**
 * A Claude Code hook's `statusMessage` shows in the turn's hook timeline while the hook runs and
 * goes when it ends: the hook is a real command that waits for the test's go-ahead, so the
 * running state is observed, not raced. With ISLET_SCREENSHOTS=DIR: DIR/hook-status-light.png.
 */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];
const HOOKS = [
  "PreToolUse:",
  "  - matcher: Read",
  "    hooks:",
  // Reads its input, then waits for the go-ahead file.
  `      - command: 'cat > /dev/null; while [ ! -f "$CLAUDE_PROJECT_DIR/go" ]; do sleep 0.1; done'`,
  "        statusMessage: Checking what is read…",
  "",
].join("\n");

describe("chat: a running hook's statusMessage", { skip: skipChat, timeout: 120_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig({ homeFiles: { "config/hooks/status.yaml": HOOKS } });
    await writeFile(path.join(rig.workdir, "notes.txt"), "hello\n");
  });
  after(async () => {
    await rig?.close();
  });

  it("shows while the hook runs, and goes when it ends", async () => {
    const { page, model } = rig;
    const conversation = page.getByRole("region", { name: "Conversation" });
    model.push(
      { toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }] },
      { text: ["It says hello."] },
    );
    await rig.composer().fill("what does notes.txt say?");
    await page.keyboard.press("Enter");
    const running = page.getByRole("status", { name: "Hooks running" });
    await expectText(running, ["status.yaml:PreToolUse", "Checking what is read…"], 15_000);
    if (SHOTS) {
      await page.emulateMedia({ colorScheme: "light" });
      await page
        .locator(".turn")
        .last()
        .screenshot({ path: path.join(SHOTS, "hook-status-light.png") });
      await page.emulateMedia({ colorScheme: null });
    }
    await writeFile(path.join(rig.workdir, "go"), "");
    await expectText(conversation, "It says hello.", 15_000);
    await running.waitFor({ state: "detached", timeout: 15_000 });
    assert.deepEqual(rig.problems, []);
  });
});
