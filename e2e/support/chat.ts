/**
 * What the chat e2e specs share: a loopback fake OpenAI server, the app under test using it, and
 * the page's problems (console errors, CSP violations, requests leaving 127.0.0.1) collected so
 * each spec can assert there were none. The app is the target's (target.ts): a real `islet serve`
 * (plugins on QuickJS) in Debian's Chromium, or the built desktop app in real Electron.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import {
  startFakeOpenAI,
  type FakeOpenAIOptions,
  type FakeServer,
} from "../../main/providers/testing/index.ts";
import { BUILT_PAGE, CHROMIUM_ARGS, ROOT, startServe, type Serve } from "./browser.ts";
import {
  electronLaunchOptions,
  launchApp,
  readAppClipboard,
  serveModelArgs,
  type ElectronLaunchOptions,
  type LaunchedApp,
  type ModelUnderTest,
} from "./electron.ts";
import { watchedPage } from "./page.ts";
import { skipOnThisTarget, target } from "./target.ts";

/** Why the chat specs cannot run here, or false. */
export const skipChat = skipOnThisTarget;

export interface ChatRig {
  target: "serve" | "electron";
  dir: string;
  home: string;
  workdir: string;
  model: FakeServer;
  /** `islet serve` (serve target only: a spec using it is `serveOnly`). */
  serve: Serve;
  /** The Chromium (serve target only). */
  browser: Browser;
  context: BrowserContext;
  /** The page or the app's first window; a new one after `restart()` on Electron. */
  page: Page;
  /** Console errors, page errors, CSP violations and outside requests seen by `page`. */
  problems: string[];
  /** The composer's text box. */
  composer(): ReturnType<Page["getByRole"]>;
  /** What the page last copied. */
  readClipboard(): Promise<string>;
  /** Stops the app (`islet serve`, or the desktop app) and starts it again on the same home. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** A plugin folder under the rig's home: plugin.yaml and index.ts. */
export interface RigPlugin {
  yaml?: string;
  code: string;
}

/** The app under test, whichever it is. */
interface Running {
  page: Page;
  context: BrowserContext;
  readClipboard(): Promise<string>;
  restart(): Promise<void>;
  close(): Promise<void>;
  serve?: () => Serve;
  browser?: Browser;
}

export async function startChatRig(
  opts: {
    plugins?: Record<string, RigPlugin>;
    colorScheme?: "light" | "dark";
    /** More files under the home (path relative to it → text). */
    homeFiles?: Record<string, string>;
    viewport?: { width: number; height: number };
    /** The loopback model server's options (a model's window: `max_model_len`). */
    model?: FakeOpenAIOptions;
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
  const model = await startFakeOpenAI([], opts.model);
  const problems: string[] = [];
  const setup = {
    home,
    workdir,
    problems,
    modelUnderTest: { provider: "openai-compatible", baseUrl: model.url, model: "fake-model" },
    viewport: opts.viewport ?? { width: 1280, height: 820 },
    colorScheme: opts.colorScheme ?? "light",
  };
  const running =
    target.name === "electron"
      ? await runElectron(setup, dir, target.electron)
      : await runServe(setup, target.chromium);
  const composer = () => running.page.getByRole("textbox", { name: "Message" });
  await composer().waitFor();
  const serveOnly = (what: string): never => {
    throw new Error(`rig.${what} exists on the serve target only: declare the spec serveOnly`);
  };
  return {
    target: target.name,
    dir,
    home,
    workdir,
    model,
    get serve() {
      return running.serve ? running.serve() : serveOnly("serve");
    },
    get browser() {
      return running.browser ?? serveOnly("browser");
    },
    get context() {
      return running.context;
    },
    get page() {
      return running.page;
    },
    problems,
    composer,
    readClipboard: () => running.readClipboard(),
    async restart() {
      await running.restart();
      await composer().waitFor();
    },
    async close() {
      await running.close();
      await model.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

interface Setup {
  home: string;
  workdir: string;
  problems: string[];
  modelUnderTest: ModelUnderTest;
  viewport: { width: number; height: number };
  colorScheme: "light" | "dark";
}

type Binary = { path: string } | { missing: string };

function binaryPath(found: Binary): string {
  assert.ok("path" in found, "missing" in found ? found.missing : "");
  return found.path;
}

async function runServe(setup: Setup, chromiumBinary: Binary): Promise<Running> {
  const serveArgs = [
    ...["--home", setup.home, "--workdir", setup.workdir, "--plugin-runtime", "quickjs"],
    ...serveModelArgs(setup.modelUnderTest),
  ];
  const [firstServe, browser] = await Promise.all([
    startServe(serveArgs),
    chromium.launch({ executablePath: binaryPath(chromiumBinary), args: CHROMIUM_ARGS }),
  ]);
  let serve = firstServe;
  const { context, page } = await watchedPage(browser, {
    viewport: setup.viewport,
    colorScheme: setup.colorScheme,
    permissions: ["clipboard-read", "clipboard-write"],
    problems: setup.problems,
  });
  await page.goto(serve.url);
  return {
    page,
    context,
    browser,
    serve: () => serve,
    readClipboard: () => page.evaluate(() => navigator.clipboard.readText()),
    async restart() {
      // The page leaves first: its reconnect attempts to the stopped server are not problems.
      await page.goto("about:blank");
      await serve.stop();
      serve = await startServe(serveArgs);
      await page.goto(serve.url);
    },
    async close() {
      await browser.close();
      await serve.stop();
    },
  };
}

async function runElectron(setup: Setup, dir: string, electron: Binary): Promise<Running> {
  assert.ok(
    existsSync(path.join(ROOT, "out", "main", "index.js")),
    "out/main/index.js is missing: run `npm run build` before the e2e tests on Electron",
  );
  const options: ElectronLaunchOptions = electronLaunchOptions({
    executablePath: binaryPath(electron),
    home: setup.home,
    workdir: setup.workdir,
    userDataDir: path.join(dir, "user-data"),
    model: setup.modelUnderTest,
    colorScheme: setup.colorScheme,
  });
  const watch = { problems: setup.problems, viewport: setup.viewport };
  let launched: LaunchedApp = await launchApp(options, watch);
  return {
    get page() {
      return launched.page;
    },
    get context() {
      return launched.app.context();
    },
    readClipboard: () => readAppClipboard(launched.app),
    async restart() {
      // Quitting flushes the sessions and frees the single-instance lock for the next launch.
      await launched.app.close();
      launched = await launchApp(options, watch);
    },
    close: () => launched.app.close(),
  };
}
