/**
 * Chat in Chromium against `islet serve` and a loopback model: a prompt streams back as Markdown
 * (seen while it streams), with a highlighted code block whose Copy button copies its code.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";

describe("chat: streamed Markdown", { skip: skipChat, timeout: 90_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig();
  });
  after(async () => {
    await rig?.close();
  });

  it("streams the answer as Markdown with a highlighted code block and copy buttons", async () => {
    const { page, model } = rig;
    model.push({
      text: [
        "# Release ",
        "notes\n\nThe **parser** is ",
        "faster now.\n\n",
        "```ts\nconst answer: number = 42;\n```\n",
        "\nThat is all.",
      ],
      pauseMs: 250,
    });
    await rig.composer().fill("What changed?");
    await page.keyboard.press("Enter");
    const transcript = page.getByRole("region", { name: "Conversation" });
    await page.waitForFunction(
      () => document.querySelector(".transcript-row")?.getAttribute("data-index") === "0",
    );
    assert.ok((await transcript.locator(".transcript-row").count()) < 20);
    // Seen while it streams: the heading is there and the turn is still running (Stop shown).
    await transcript.getByRole("heading", { name: "Release notes" }).waitFor({ timeout: 10_000 });
    assert.equal(await page.getByRole("button", { name: "Stop" }).count(), 1, "still streaming");
    await expectText(transcript, "That is all.", 10_000);
    await page.getByRole("button", { name: "Send" }).waitFor();

    assert.equal(await transcript.locator("strong", { hasText: "parser" }).count(), 1);
    const code = transcript.locator(".code-block code.language-ts");
    assert.equal(await code.innerText(), "const answer: number = 42;\n");
    assert.ok((await code.locator(".hljs-keyword").count()) >= 1, "the code is highlighted");

    await transcript.getByRole("button", { name: "Copy ts code" }).click();
    await expectText(transcript.locator(".code-copy"), "Copied");
    assert.equal(await rig.readClipboard(), "const answer: number = 42;\n");
    await transcript.locator(".msg-assistant").hover();
    await transcript.getByRole("button", { name: "Copy message" }).click();
    assert.match(await rig.readClipboard(), /^# Release notes/);
    assert.deepEqual(rig.problems, []);
  });

  it("shows a failed turn's error inline; Retry sends the prompt again", async () => {
    const { page, model } = rig;
    model.push({ error: { status: 401, message: "invalid api key" } });
    await rig.composer().fill("Are you there?");
    await page.keyboard.press("Enter");
    const transcript = page.getByRole("region", { name: "Conversation" });
    const failure = transcript.getByRole("alert");
    await expectText(failure, ["The turn failed", "invalid api key"], 15_000);
    model.push({ text: ["Yes, I am here."] });
    await failure.getByRole("button", { name: "Retry" }).click();
    await expectText(transcript, "Yes, I am here.", 10_000);
    const prompts = await transcript.locator(".bubble-user").allInnerTexts();
    assert.deepEqual(prompts.slice(-2), ["Are you there?", "Are you there?"]);
    assert.equal(await transcript.getByRole("button", { name: "Retry" }).count(), 0);
    assert.deepEqual(rig.problems, []);
  });

  it("follows a long answer at the bottom, and stays put once the person scrolls up", async () => {
    const { page, model } = rig;
    const lines = Array.from({ length: 80 }, (_, i) => `Line ${i} of a long answer.\n\n`);
    model.push({ text: lines, pauseMs: 100 });
    await rig.composer().fill("Something long, please");
    await page.keyboard.press("Enter");
    const transcript = page.getByRole("region", { name: "Conversation" });
    await expectText(transcript, "Line 30 of", 15_000);
    const gap = () => transcript.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
    assert.ok((await gap()) < 80, "at the bottom while it streams");
    // One jump to the top, as dragging the scroll bar's thumb does.
    await transcript.evaluate((el) => el.scrollTo({ top: 0, behavior: "instant" }));
    await page.waitForTimeout(300);
    const top = await transcript.evaluate((el) => el.scrollTop);
    await expectText(transcript, "Line 45 of", 15_000);
    assert.ok(
      Math.abs((await transcript.evaluate((el) => el.scrollTop)) - top) < 5,
      "the view stayed where the person scrolled",
    );
    assert.ok((await gap()) > 200);
    await page.getByRole("button", { name: "Stop" }).click();
    await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 10_000 });
    // Once the turn is over, going back to the top stays at the top too.
    await transcript.evaluate((el) => el.scrollTo({ top: el.scrollHeight, behavior: "instant" }));
    await page.waitForTimeout(200);
    await transcript.evaluate((el) => el.scrollTo({ top: 0, behavior: "instant" }));
    await page.waitForTimeout(500);
    assert.equal(await transcript.evaluate((el) => el.scrollTop), 0);
    assert.deepEqual(rig.problems, []);
  });

  it("shows the engine's retries of a failing model call, then the answer", async () => {
    const { page, model } = rig;
    model.push({ error: { status: 503 } }, { text: ["Back again."] });
    await rig.composer().fill("Hello?");
    await page.keyboard.press("Enter");
    const transcript = page.getByRole("region", { name: "Conversation" });
    await expectText(transcript, /Retrying \(attempt 1\) in \d/, 15_000);
    await expectText(transcript, "Back again.", 15_000);
    assert.deepEqual(rig.problems, []);
  });

  it("keeps a long session light: only the turns on screen are in the page", async () => {
    const { page } = rig;
    const transcript = page.getByRole("region", { name: "Conversation" });
    for (let i = 0; i < 40; i++) {
      await rig.composer().fill("/tools");
      await page.keyboard.press("Enter");
      await page.getByRole("button", { name: "Send" }).waitFor();
    }
    await expectText(transcript, "/tools");
    const rows = await transcript.locator(".transcript-row").count();
    assert.ok(rows < 20, `${rows} turns in the DOM for 40 or more in the session`);
    await transcript.evaluate((el) => el.scrollTo({ top: 0, behavior: "instant" }));
    await page.waitForFunction(
      () => document.querySelector(".transcript-row")?.getAttribute("data-index") === "0",
    );
    assert.ok((await transcript.locator(".transcript-row").count()) < 20);
    assert.deepEqual(rig.problems, []);
  });
});
