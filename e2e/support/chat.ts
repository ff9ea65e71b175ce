/**
 * What the chat e2e specs share: a loopback fake OpenAI server, a real `islet serve` using it
 * (plugins on QuickJS), Debian's Chromium on the page, and the page's problems (console errors,
 * CSP violations, requests leaving 127.0.0.1) collected so each spec can assert there were none.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { startFakeOpenAI, type FakeServer } from "../../main/providers/testing/index.ts";
import { BUILT_PAGE, CHROMIUM_ARGS, findChromium, startServe, type Serve } from "./browser.ts";
import { watchedPage } from "./page.ts";

const browserBinary = findChromium();
/** Why the chat specs cannot run here, or false. */
export const skipChat = "missing" in browserBinary ? browserBinary.missing : false;

export interface ChatRig {
  dir: string;
  home: string;
  workdir: string;
  model: FakeServer;
  serve: Serve;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors, page errors, CSP violations and outside requests seen by `page`. */
  problems: string[];
  /** The composer's text box. */
  composer(): ReturnType<Page["getByRole"]>;
  /** Stops `islet serve` and starts it again on the same home (a new URL), and opens it. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A plugin folder under the rig's home: plugin.yaml and index.ts. */
export interface RigPlugin {
  yaml?: string;
  code: string;
}

export async function startChatRig(
  opts: {
    plugins?: Record<string, RigPlugin>;
    colorScheme?: "light" | "dark";
    /** More files under the home (path relative to it → text). */
    homeFiles?: Record<string, string>;
    viewport?: { width: number; height: number };
  } = {},
): Promise<ChatRig> {
  assert.ok(
    existsSync(BUILT_PAGE),
    `${BUILT_PAGE} is missing: run \`npm run build\` before the e2e tests (.ci/run does)`,
  );
  const dir = await mkdtemp(path.join(tmpdir(), "islet-chat-e2e-"));
  const home = path.join(dir, "home");
  const workdir = path.join(dir, "project");
  await mkdir(workdir, { recursive: true });
  for (const [name, p] of Object.entries(opts.plugins ?? {})) {
    const pluginDir = path.join(home, "plugins", name);
    await mkdir(pluginDir, { recursive: true });
    await writeFile(path.join(pluginDir, "plugin.yaml"), p.yaml ?? `description: "${name}"\n`);
    await writeFile(path.join(pluginDir, "index.ts"), p.code);
  }
  for (const [rel, text] of Object.entries(opts.homeFiles ?? {})) {
    await mkdir(path.dirname(path.join(home, rel)), { recursive: true });
    await writeFile(path.join(home, rel), text);
  }
  const model = await startFakeOpenAI([]);
  const serveArgs = [
    ...["--home", home, "--workdir", workdir, "--plugin-runtime", "quickjs"],
    ...["--provider", "openai-compatible", "--base-url", model.url, "--model", "fake-model"],
  ];
  const [firstServe, browser] = await Promise.all([
    startServe(serveArgs),
    chromium.launch({
      executablePath: (browserBinary as { path: string }).path,
      args: CHROMIUM_ARGS,
    }),
  ]);
  let serve = firstServe;
  const { context, page, problems } = await watchedPage(browser, {
    viewport: opts.viewport ?? { width: 1280, height: 820 },
    colorScheme: opts.colorScheme ?? "light",
    permissions: ["clipboard-read", "clipboard-write"],
  });
  await page.goto(serve.url);
  const composer = () => page.getByRole("combobox", { name: "Message" });
  await composer().waitFor();
  return {
    dir,
    home,
    workdir,
    model,
    get serve() {
      return serve;
    },
    browser,
    context,
    page,
    problems,
    composer,
    async restart() {
      // The page leaves first: its reconnect attempts to the stopped server are not problems.
      await page.goto("about:blank");
      await serve.stop();
      serve = await startServe(serveArgs);
      await page.goto(serve.url);
      await composer().waitFor();
    },
    async close() {
      await browser.close();
      await serve.stop();
      await model.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
