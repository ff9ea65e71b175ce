/**
 * Stop in the chat (Chromium, `islet serve`, a loopback model): a slow stream ends at once and
 * the composer is ready again; a running Bash command is killed, not waited for.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { expectText } from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";

/** A sleep no other process on this machine runs, so it can be looked for. */
const SLEEP = `sleep 30.${process.pid}`;
const sleeping = () =>
  execFileSync("ps", ["-eo", "args"], { encoding: "utf8" })
    .split("\n")
    .some((line) => line.trim() === SLEEP);

describe("chat: Stop", { skip: skipChat, timeout: 120_000 }, () => {
  let rig: ChatRig;
  before(async () => {
    rig = await startChatRig();
  });
  after(async () => {
    await rig?.close();
  });

  it("stops a slow stream mid-way; the composer is ready again and the next prompt works", async () => {
    const { page, model } = rig;
    // 60 pieces, 0.4 s apart: 24 s if nobody stops it.
    const pieces = Array.from({ length: 60 }, (_, i) => `word${i} `);
    model.push({ text: pieces, pauseMs: 400 });
    await rig.composer().fill("Tell me a long story");
    await page.keyboard.press("Enter");
    const transcript = page.getByRole("region", { name: "Conversation" });
    await expectText(transcript, "word1 ", 15_000);
    const started = Date.now();
    await page.getByRole("button", { name: "Stop" }).click();
    await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 10_000 });
    assert.ok(
      Date.now() - started < 10_000,
      "Stop ended the turn well before the stream would have",
    );
    await expectText(transcript, "Stopped.");
    const shown = await transcript.innerText();
    assert.ok(!shown.includes("word59"), "the rest of the stream never arrived");

    model.push({ text: ["Here is a shorter one."] });
    await rig.composer().fill("A short one then");
    await page.keyboard.press("Enter");
    await expectText(transcript, "Here is a shorter one.", 10_000);
    assert.deepEqual(rig.problems, []);
  });

  it("Stop (Escape) kills a running Bash command at once", async () => {
    const { page, model } = rig;
    model.push({ toolCalls: [{ name: "Bash", arguments: { command: SLEEP } }] });
    await page.getByRole("button", { name: "Send" }).waitFor();
    await rig.composer().fill("Wait half a minute");
    await page.keyboard.press("Enter");
    const card = page.getByRole("article", { name: "Tool Bash" });
    await card.getByRole("button", { name: "Allow", exact: true }).click({ timeout: 15_000 });
    await expectText(card, "Running", 10_000);
    const deadline = Date.now() + 10_000;
    while (!sleeping()) {
      assert.ok(Date.now() < deadline, `${SLEEP} never started`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const started = Date.now();
    // From the keyboard this time: answering gave the composer the focus back; Escape stops.
    assert.ok(await rig.composer().evaluate((el) => el === document.activeElement));
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 15_000 });
    const took = Date.now() - started;
    assert.ok(took < 15_000, `the turn ended ${took} ms after Stop, not after the 30 s sleep`);
    assert.equal(sleeping(), false, "the sleep was killed");
    await expectText(card, /Stopped|Failed/);
    assert.deepEqual(rig.problems, []);
  });

  it("Stop while a tool waits for approval withdraws the question; the tool never runs", async () => {
    const { page, model } = rig;
    model.push({ toolCalls: [{ name: "Write", arguments: { path: "never.txt", content: "x" } }] });
    await page.getByRole("button", { name: "Send" }).waitFor();
    await rig.composer().fill("Write never.txt");
    await page.keyboard.press("Enter");
    const card = page.getByRole("article", { name: "Tool Write" });
    const question = card.getByRole("group", { name: "Allow Write?" });
    await question.waitFor({ timeout: 15_000 });
    await page.getByRole("button", { name: "Stop" }).click();
    await question.waitFor({ state: "detached", timeout: 10_000 });
    await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 10_000 });
    await expectText(card, /Stopped|Failed/);
    assert.equal(existsSync(path.join(rig.workdir, "never.txt")), false);
    assert.deepEqual(rig.problems, []);
  });

  it("a turn goes on while another view is shown, and is there on coming back", async () => {
    const { page, model } = rig;
    model.push({ text: Array.from({ length: 20 }, (_, i) => `part${i} `), pauseMs: 100 });
    await page.getByRole("button", { name: "Send" }).waitFor();
    await rig.composer().fill("Keep going while I look at plugins");
    await page.keyboard.press("Enter");
    const transcript = page.getByRole("region", { name: "Conversation" });
    await expectText(transcript, "part1 ", 15_000);
    await page.getByRole("button", { name: /^Plugins/ }).click();
    await page.getByRole("heading", { level: 1, name: "Plugins" }).waitFor();
    await page.waitForTimeout(2500);
    await page.getByRole("button", { name: "Chat" }).click();
    await expectText(transcript, "part19", 10_000);
    const last = await transcript.locator(".turn").last().innerText();
    assert.ok(!last.includes("Stopped."), `it was not stopped:\n${last}`);
    assert.deepEqual(rig.problems, []);
  });
});
