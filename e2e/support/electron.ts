/**
 * The desktop app as the e2e specs' target (target.ts): the built app launched through
 * playwright-core's `_electron` with its own user-data folder, home, workspace and model (the
 * environment main/electron/launch-env.ts reads), and its first window handed to the spec.
 */
import { _electron, type ElectronApplication, type Page } from "playwright-core";
import { ROOT } from "./browser.ts";
import { isLoopback, watchPage } from "./page.ts";

/** The model a rig points the app at: what `islet serve` takes as flags. */
export interface ModelUnderTest {
  provider: string;
  baseUrl: string;
  model: string;
}

export function serveModelArgs(m: ModelUnderTest): string[] {
  return ["--provider", m.provider, "--base-url", m.baseUrl, "--model", m.model];
}

export type ElectronLaunchOptions = NonNullable<Parameters<typeof _electron.launch>[0]>;

/** What `_electron.launch` gets for one spec's app. */
export function electronLaunchOptions(o: {
  executablePath: string;
  home: string;
  workdir: string;
  /** Per spec: the app holds a single-instance lock in it. */
  userDataDir: string;
  model: ModelUnderTest;
  colorScheme: "light" | "dark";
  baseEnv?: NodeJS.ProcessEnv;
  root?: string;
}): ElectronLaunchOptions {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(o.baseEnv ?? process.env)) {
    // Electron as plain Node would not open a window; the user's own Islet settings do not apply.
    if (value === undefined || key === "ELECTRON_RUN_AS_NODE" || key.startsWith("ISLET_")) continue;
    env[key] = value;
  }
  const root = o.root ?? ROOT;
  return {
    executablePath: o.executablePath,
    // The folder, as `npm start` does: package.json's main is the built out/main/index.js.
    args: [root],
    cwd: root,
    env: {
      ...env,
      NO_COLOR: "1",
      ISLET_HOME: o.home,
      ISLET_WORKDIR: o.workdir,
      ISLET_USER_DATA_DIR: o.userDataDir,
      ISLET_PROVIDER: o.model.provider,
      ISLET_BASE_URL: o.model.baseUrl,
      ISLET_MODEL: o.model.model,
    },
    colorScheme: o.colorScheme,
    // The sandbox probe runs before the engine starts; a loaded machine is slow at it.
    timeout: 60_000,
  };
}

/** Where a page of the app may go: its own app:// files, inline data, and loopback. */
function allowedInApp(url: string): boolean {
  return isLoopback(url) || /^(app|data|blob|devtools):/.test(url);
}

export interface LaunchedApp {
  app: ElectronApplication;
  /** The app's first window. */
  page: Page;
}

/** Launches the app and watches its first window into `problems` from its first document on. */
export async function launchApp(
  options: ElectronLaunchOptions,
  opts: { problems: string[]; viewport: { width: number; height: number } },
): Promise<LaunchedApp> {
  const app = await _electron.launch(options);
  try {
    // Seen, not blocked: the app's own guards are what stop navigation, and they are under test.
    app.context().on("request", (request) => {
      if (!allowedInApp(request.url())) opts.problems.push(`outside request: ${request.url()}`);
    });
    const page = await app.firstWindow({ timeout: 60_000 });
    await watchPage(page, opts.problems);
    // The window may have loaded before the watch began: once more, watched from the start.
    await page.waitForLoadState("domcontentloaded");
    await page.reload();
    const win = await app.browserWindow(page);
    await win.evaluate(
      (w: { setContentSize(width: number, height: number): void }, size) =>
        w.setContentSize(size.width, size.height),
      opts.viewport,
    );
    return { app, page };
  } catch (error) {
    await app.close().catch(() => {});
    throw error;
  }
}

/** What the app put on the system clipboard (its page may write it, not read it back). */
export function readAppClipboard(app: ElectronApplication): Promise<string> {
  return app.evaluate(({ clipboard }) => clipboard.readText());
}
