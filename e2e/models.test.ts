/**
 * The built-in models in Chromium against a real `islet serve` on an empty home (no provider,
 * no server) and a catalog whose files come from a loopback server (ISLET_MODELS_CATALOG):
 * the chat's empty state offers the recommended model with its size; Download shows progress
 * and the model then appears in the picker; the Models screen lists it with its memory fit,
 * deletes it from the keyboard, and downloads and cancels another; axe finds nothing serious
 * in light or dark; a chat then streams its answer from the embedded runtime (the runtime's
 * tiny random-weight model, steered to say "Hello"). With ISLET_SCREENSHOTS=DIR it saves
 * models-light.png, models-dark.png and models-offer-light.png.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { chromium, type Browser, type Page } from "playwright-core";
import { parse } from "yaml";
import { startFileServer, type FileServer } from "../main/models/testing/file-server.ts";
import { formatBytes, readGgufInfo } from "../main/models/index.ts";
import { writeTinyGguf } from "../main/providers/local/testing/tiny-gguf.ts";
import {
  BUILT_PAGE,
  CHROMIUM_ARGS,
  expectText,
  findChromium,
  ROOT,
  startServe,
  type Serve,
} from "./support/browser.ts";
import { seriousViolationsLightAndDark, watchedPage } from "./support/page.ts";

const SHOTS = process.env["ISLET_SCREENSHOTS"];
const browserBinary = findChromium();
const skip = "missing" in browserBinary ? browserBinary.missing : false;

// The runtime's tiny random-weight model, steered to answer "Hello" and stop; its nearly
// per-character tokenizer makes the agent's system prompt and tools ~6,500 tokens.
const TINY = { contextLength: 32_768, follow: { "\n": " Hello", " Hello": "<|im_end|>" } };

describe(
  "built-in models: first-run offer, download, Models screen",
  { skip, timeout: 400_000 },
  () => {
    let dir: string;
    let files: FileServer;
    let serve: Serve;
    let browser: Browser;
    let page: Page;
    let problems: string[];
    let size: string;
    let context: string;
    let body: Buffer;

    before(async () => {
      assert.ok(existsSync(BUILT_PAGE), `${BUILT_PAGE} is missing: run \`npm run build\` first`);
      dir = await mkdtemp(path.join(tmpdir(), "islet-e2e-models-"));
      const source = path.join(dir, "tiny-source.gguf");
      await writeTinyGguf(source, TINY);
      body = readFileSync(source);
      size = formatBytes(body.length);
      const info = await readGgufInfo(source);
      context = `${info.contextLength.toLocaleString("en")} tokens context`;
      files = await startFileServer({ body, chunkDelayMs: 150 });
      // The shipped catalog's models (never downloaded here) and a small one served from this
      // machine; planning for 1.2 GB of memory makes the small one the recommendation.
      const shipped = (
        parse(readFileSync(path.join(ROOT, "resources", "models-catalog.yaml"), "utf8")) as {
          models: Record<string, unknown>[];
        }
      ).models;
      const tiny = {
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
      };
      const catalog = path.join(dir, "catalog.yaml");
      await writeFile(catalog, JSON.stringify({ models: [...shipped, tiny] }));
      process.env.ISLET_MODELS_CATALOG = catalog;
      process.env.ISLET_TOTAL_MEMORY = String(1.2e9);
      const home = path.join(dir, "home");
      [serve, browser] = await Promise.all([
        startServe(["--home", home, "--workdir", dir]),
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

    it("the chat's empty state offers the model that fits this machine, with its size", async () => {
      const offer = page.getByRole("region", { name: "Chat offline with a built-in model" });
      await expectText(offer, ["Tiny Chat", `${size} download`, "MIT"], 15_000);
      const button = offer.getByRole("button", { name: `Download Tiny Chat (${size})` });
      assert.ok(await button.isVisible());
      const axe = await seriousViolationsLightAndDark(page);
      assert.deepEqual(axe, { light: [], dark: [] });
      if (SHOTS) await page.screenshot({ path: path.join(SHOTS, "models-offer-light.png") });
    });

    it("Download shows progress from the loopback server, then the model is in the picker", async () => {
      const offer = page.getByRole("region", { name: "Chat offline with a built-in model" });
      await offer.getByRole("button", { name: `Download Tiny Chat (${size})` }).click();
      const bar = offer.getByRole("progressbar", { name: "Downloading Tiny Chat" });
      await bar.waitFor();
      await expectText(offer, [new RegExp(`\\d+ (kB|MB) of ${size}`), /MB\/s|kB\/s/], 10_000);
      const seen = Number(await bar.getAttribute("aria-valuenow"));
      assert.ok(seen >= 0 && seen < 100, `progress ${seen}%`);
      await offer.waitFor({ state: "detached", timeout: 30_000 });
      const option = page.locator("option", { hasText: "tiny-chat" });
      await option.waitFor({ state: "attached", timeout: 10_000 });
      assert.equal(
        await page.locator("optgroup", { has: option }).getAttribute("label"),
        "Built-in · embedded",
      );
      assert.equal(files.requests.at(-1)?.status, 200);
    });

    it("then the chat uses it: the answer streams from the embedded runtime", async () => {
      const picker = page.getByRole("combobox", { name: /^Model for/ });
      await expectText(picker.locator("option:checked"), "tiny-chat", 10_000);
      await page.getByRole("textbox", { name: "Message" }).fill("Say hello");
      await page.keyboard.press("Enter");
      // Generous: the runtime starts, loads the model and reads the prompt on a shared 2-core machine.
      await expectText(page.locator(".msg-assistant").last(), "Hello", 240_000);
      assert.deepEqual(problems, []);
    });

    it("the Models screen: downloaded with its fit, the catalog, delete and download from the keyboard", async () => {
      await page.getByRole("button", { name: "Models", exact: true }).click();
      const downloaded = page.getByRole("region", { name: "Downloaded" });
      await expectText(downloaded, ["tiny-chat", "In use", "llama", "F32", context, "Fits · "]);
      const catalog = page.getByRole("region", { name: "Catalog" });
      await expectText(catalog, [
        "Qwen3 4B",
        "Apache-2.0",
        "Too big · 4.2 GB",
        "Tiny Chat",
        "Downloaded",
        "Recommended",
      ]);
      assert.deepEqual(await seriousViolationsLightAndDark(page), { light: [], dark: [] });
      if (SHOTS) {
        for (const scheme of ["light", "dark"] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.screenshot({ path: path.join(SHOTS, `models-${scheme}.png`) });
        }
        await page.emulateMedia({ colorScheme: null });
      }

      // Delete, from the keyboard: the button, then the confirmation.
      await downloaded.getByRole("button", { name: "Delete tiny-chat" }).focus();
      await page.keyboard.press("Enter");
      const confirm = downloaded.getByRole("group", { name: "Delete tiny-chat?" });
      await confirm.getByRole("button", { name: "Delete" }).focus();
      await page.keyboard.press("Enter");
      await expectText(downloaded, "None yet", 10_000);

      // Download again slowly, cancel, and the card offers to resume.
      files.setChunkDelay(300);
      const card = catalog.getByRole("listitem").filter({ hasText: "Tiny Chat" });
      await card.getByRole("button", { name: "Download" }).focus();
      await page.keyboard.press("Enter");
      await card.getByRole("progressbar").waitFor();
      await expectText(card, new RegExp(`\\d+ (kB|MB) of ${size}`), 10_000);
      await card.getByRole("button", { name: "Cancel" }).click();
      await card.getByRole("button", { name: "Resume" }).waitFor({ timeout: 10_000 });
      assert.deepEqual(problems, []);
    });
  },
);
