/**
 * Remedies in the app, never a CLI command (Chromium, `islet serve`): with no model at all, the
 * chat's error offers the recommended built-in model's Download (from a loopback server), shows
 * its progress, then Send again and the Models view; a Write approval shows a diff against the
 * file on disk (Monaco, bundled), a new file as its content. axe finds nothing serious in light
 * or dark. With ISLET_SCREENSHOTS=DIR it saves remedy-*.png and approval-diff-*.png at 1400 and
 * 900 px wide, light and dark.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { startFileServer, type FileServer } from "../main/models/testing/file-server.ts";
import { ggufBytes, llamaSpec } from "../main/models/testing/gguf-writer.ts";
import { formatBytes } from "../main/models/index.ts";
import {
  BUILT_PAGE,
  CHROMIUM_ARGS,
  expectText,
  findChromium,
  startServe,
  type Serve,
} from "./support/browser.ts";
import { skipChat, startChatRig, type ChatRig } from "./support/chat.ts";
import { seriousViolationsLightAndDark, watchedPage } from "./support/page.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];
const browserBinary = findChromium();
const skip = "missing" in browserBinary ? browserBinary.missing : false;

async function shots(page: Page, name: string): Promise<void> {
  if (!SHOTS) return;
  const size = page.viewportSize() ?? { width: 1280, height: 820 };
  for (const width of [1400, 900])
    for (const scheme of ["light", "dark"] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(SHOTS, `${name}-${width}-${scheme}.png`) });
    }
  await page.emulateMedia({ colorScheme: null });
  await page.setViewportSize(size);
}

describe("no model: the chat's error offers the Download", { skip, timeout: 180_000 }, () => {
  let dir: string;
  let files: FileServer;
  let serve: Serve;
  let browser: Browser;
  let page: Page;
  let problems: string[];
  let size: string;

  before(async () => {
    assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
    dir = await mkdtemp(path.join(tmpdir(), "islet-e2e-remedy-"));
    const body = ggufBytes({
      ...llamaSpec(),
      tensors: [...llamaSpec().tensors, { name: "output.weight", dims: [512, 1024], type: 0 }],
    });
    size = formatBytes(body.length);
    files = await startFileServer({ body, chunkDelayMs: 120 });
    const catalog = path.join(dir, "catalog.yaml");
    await writeFile(
      catalog,
      JSON.stringify({
        models: [
          {
            name: "tiny-chat",
            title: "Tiny Chat",
            description: "A very small test model, served from this machine.",
            url: `${files.url}/model.gguf`,
            size: body.length,
            sha256: createHash("sha256").update(body).digest("hex"),
            quantization: "F32",
            parameters: "0.1M",
            memory_gb: 0.6,
            license: "MIT",
          },
        ],
      }),
    );
    process.env.ISLET_MODELS_CATALOG = catalog;
    process.env.ISLET_TOTAL_MEMORY = String(1.2e9);
    [serve, browser] = await Promise.all([
      startServe(["--home", path.join(dir, "home"), "--workdir", dir]),
      chromium.launch({
        executablePath: (browserBinary as { path: string }).path,
        args: CHROMIUM_ARGS,
      }),
    ]);
    ({ page, problems } = await watchedPage(browser));
    await page.goto(serve.url);
  });

  after(async () => {
    await browser?.close();
    await serve?.stop();
    await files?.close();
    delete process.env.ISLET_MODELS_CATALOG;
    delete process.env.ISLET_TOTAL_MEMORY;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("sending says there is no model in the app's words, with Download, progress, Send again, Models", async () => {
    await page.getByRole("textbox", { name: "Message" }).fill("hello");
    await page.keyboard.press("Enter");
    const conversation = page.getByRole("region", { name: "Conversation" });
    const error = conversation.getByRole("alert").filter({ hasText: "no model to chat with" });
    await expectText(error, "There is no model to chat with yet.", 20_000);
    const words = (await error.textContent()) ?? "";
    assert.doesNotMatch(words, /islet |models pull|`/, "no CLI command in the app");
    const download = error.getByRole("button", { name: `Download Tiny Chat (${size})` });
    // The offer comes once the recommended model is known: waited for, not sampled.
    await download.waitFor({ timeout: 20_000 });
    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    await shots(page, "remedy-no-model");

    await download.click();
    const bar = error.getByRole("progressbar", { name: "Downloading Tiny Chat" });
    await bar.waitFor({ timeout: 10_000 });
    await expectText(error, new RegExp(`\\d+ (kB|MB) of ${size}`), 10_000);
    await shots(page, "remedy-downloading");
    // Done: the offer goes, the model is there; Send again and the Models view remain.
    await error
      .getByRole("region", { name: "Chat offline with a built-in model" })
      .waitFor({ state: "detached", timeout: 30_000 });
    assert.ok(await error.getByRole("button", { name: "Send again" }).isVisible());
    await error.getByRole("button", { name: "Choose another model…" }).click();
    await page.getByRole("heading", { level: 1, name: "Models" }).waitFor();
    await expectText(page.getByRole("region", { name: "Downloaded" }), "tiny-chat", 10_000);
    assert.deepEqual(problems, []);
  });

  it("the Models view adds a GGUF file by its path, refusing one that is not GGUF", async () => {
    await page.getByRole("button", { name: "Add a model file…" }).click();
    const input = page.getByRole("textbox", { name: /Full path of a \.gguf file/ });
    await input.fill("/etc/passwd");
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expectText(page.locator(".add-model [role=alert]"), "not a GGUF model file", 10_000);
    assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
    await shots(page, "models-add-file");
    await writeFile(path.join(dir, "Local Pick.gguf"), ggufBytes(llamaSpec()));
    await input.fill(path.join(dir, "Local Pick.gguf"));
    await page.getByRole("button", { name: "Add", exact: true }).click();
    await expectText(page.getByRole("region", { name: "Downloaded" }), "Local-Pick", 10_000);
    await page.getByRole("button", { name: "Download from a URL…" }).click();
    await page.getByRole("textbox", { name: /Web address/ }).fill("javascript:alert(1)");
    await page.getByRole("button", { name: "Download", exact: true }).click();
    await expectText(page.locator(".add-model [role=alert]"), "Only web addresses", 5_000);
    await shots(page, "models-add-url");
    assert.deepEqual(problems, []);
  });

  it("a URL download that broke off offers Resume, which finishes it from the kept part", async () => {
    const body = ggufBytes({
      ...llamaSpec(),
      tensors: [...llamaSpec().tensors, { name: "output.weight", dims: [512, 1024], type: 0 }],
    });
    const cut = await startFileServer({ body, cutAfter: 300_000 });
    try {
      const url = `${cut.url}/model.gguf`;
      await page.getByRole("textbox", { name: /Web address/ }).fill(url);
      await page.getByRole("button", { name: "Download", exact: true }).click();
      const urls = page.getByRole("region", { name: "From URLs" });
      const resume = urls.getByRole("button", { name: "Resume" });
      await resume.waitFor({ timeout: 15_000 });
      const text = await expectText(urls, [url, /Stopped · \d+ kB of \d+ MB kept/, "Resume"]);
      assert.doesNotMatch(text, /command|islet /, "the app's words");
      assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
      await shots(page, "models-url-resume");
      await resume.click();
      await expectText(page.getByRole("region", { name: "Downloaded" }), /^model$/m, 15_000);
      assert.match(cut.requests.at(-1)?.range ?? "", /^bytes=\d+-$/, "resumed with a Range");
      assert.deepEqual(problems, []);
    } finally {
      await cut.close();
    }
  });
});

describe(
  "Write approval: a diff against the file on disk",
  { skip: skipChat, timeout: 120_000 },
  () => {
    let rig: ChatRig;
    before(async () => {
      rig = await startChatRig({ viewport: { width: 1400, height: 900 } });
    });
    after(async () => {
      await rig?.close();
    });

    const OLD = "# Notes\n\nKeep this line.\nChange this line.\n";
    const NEW = "# Notes\n\nKeep this line.\nThe changed line.\nA new line\twith a tab.\n";

    it("an existing file shows Monaco's diff, and the full new content one click away", async () => {
      const { page, model } = rig;
      await writeFile(path.join(rig.workdir, "notes.md"), OLD);
      model.push(
        { toolCalls: [{ name: "Read", arguments: { path: "notes.md" } }] },
        { toolCalls: [{ name: "Write", arguments: { path: "notes.md", content: NEW } }] },
        { text: ["Updated the notes."] },
      );
      await rig.composer().fill("Update the notes");
      await page.keyboard.press("Enter");
      const question = page.getByRole("group", { name: "Allow Write?" });
      await expectText(question, ["Changes to", "notes.md"], 15_000);
      const diff = question.locator(".change-diff .monaco-diff-editor");
      await diff.waitFor({ timeout: 20_000 });
      // Monaco draws spaces as no-break spaces: \s matches both.
      await expectText(question.locator(".change-diff"), [
        /Change\sthis\sline/,
        /The\schanged\sline/,
      ]);
      assert.doesNotMatch((await question.textContent()) ?? "", /\\n|"content"/, "no escaped JSON");
      await question.getByRole("button", { name: "Show the full new content" }).click();
      assert.equal(await question.getByLabel("New content of notes.md").textContent(), NEW);
      const axe = await seriousViolationsLightAndDark(page, { exclude: [".change-diff"] });
      assert.deepEqual(axe, { light: [], dark: [] });
      await shots(page, "approval-diff");

      await question.getByRole("button", { name: "Allow", exact: true }).click();
      await expectText(
        page.getByRole("region", { name: "Conversation" }),
        "Updated the notes.",
        15_000,
      );
      assert.equal(readFileSync(path.join(rig.workdir, "notes.md"), "utf8"), NEW);
      assert.deepEqual(rig.problems, []);
    });

    it("a new file shows its content as text", async () => {
      const { page, model } = rig;
      model.push(
        {
          toolCalls: [
            { name: "Write", arguments: { path: "fresh.md", content: "Line one\nLine two\n" } },
          ],
        },
        { text: ["Not written."] },
      );
      await page.getByRole("button", { name: "Send" }).waitFor();
      await rig.composer().fill("Write fresh.md");
      await page.keyboard.press("Enter");
      const question = page.getByRole("group", { name: "Allow Write?" });
      await expectText(question, "New file", 15_000);
      assert.equal(
        await question.getByLabel("Content of fresh.md").textContent(),
        "Line one\nLine two\n",
      );
      await shots(page, "approval-new-file");
      await question.getByRole("button", { name: "Deny" }).click();
      const card = page.getByRole("article", { name: "Tool Write" }).last();
      await expectText(card, "Denied by you", 10_000);
      await expectText(page.getByRole("region", { name: "Conversation" }), "Not written.", 10_000);
      await shots(page, "tool-denied");
      assert.deepEqual(rig.problems, []);
    });
  },
);
