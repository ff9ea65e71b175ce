/**
 * A Chromium page on `islet serve` as the e2e specs use it: requests leaving 127.0.0.1 aborted,
 * console errors and warnings, page errors and CSP violations collected, axe-core on demand.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

interface AxeApi {
  run(
    context: Document | { exclude: string[][] },
    options: { resultTypes: string[] },
  ): Promise<{
    violations: {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[] }[];
    }[];
  }>;
}

export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  /** What went wrong in the page so far (a spec asserts it stays empty). */
  problems: string[];
}

export async function watchedPage(
  browser: Browser,
  opts: {
    acceptDownloads?: boolean;
    viewport?: { width: number; height: number };
    colorScheme?: "light" | "dark";
    permissions?: string[];
    /** Collect into this list (default: a new one). */
    problems?: string[];
  } = {},
): Promise<WatchedPage> {
  const problems = opts.problems ?? [];
  const context = await browser.newContext({
    viewport: opts.viewport ?? { width: 1280, height: 800 },
    acceptDownloads: opts.acceptDownloads ?? false,
    ...(opts.colorScheme ? { colorScheme: opts.colorScheme } : {}),
    ...(opts.permissions ? { permissions: opts.permissions } : {}),
  });
  await context.route(
    (url) => !isLoopback(url.href),
    (route) => {
      problems.push(`outside request: ${route.request().url()}`);
      return route.abort();
    },
  );
  const page = await context.newPage();
  await watchPage(page, problems);
  return { context, page, problems };
}

/** `islet serve`'s page and socket: the only places a page of ours may reach. */
export function isLoopback(url: string): boolean {
  return url.startsWith("http://127.0.0.1") || url.startsWith("ws://127.0.0.1");
}

/**
 * Collects the page's console errors and warnings, page errors and (from its next document on)
 * CSP violations into `problems`.
 */
export async function watchPage(page: Page, problems: string[]): Promise<void> {
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`),
    ),
  );
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warning")
      problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
}

/**
 * Serious or critical axe-core violations on the page as it is now (empty: none). `exclude`:
 * selectors of third-party widgets with their own accessibility model (Monaco's editor surface).
 */
export async function seriousViolations(
  page: Page,
  opts: { exclude?: string[] } = {},
): Promise<unknown[]> {
  const violations = await allViolations(page, opts);
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/** Every axe-core violation on the page as it is now, whatever its impact (empty: none). */
export async function allViolations(
  page: Page,
  opts: { exclude?: string[] } = {},
): Promise<{ id: string; impact: string | null; help: string; nodes: string[] }[]> {
  // Evaluated over the DevTools protocol, so the page's CSP (no inline scripts) is untouched.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (exclude) => {
    const axe = (window as unknown as { axe: AxeApi }).axe;
    const context = exclude.length > 0 ? { exclude: exclude.map((s) => [s]) } : document;
    const result = await axe.run(context, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 3),
    }));
  }, opts.exclude ?? []);
  return violations;
}

/** The same in light and in dark (the page's colour scheme is given back to the OS after). */
export async function seriousViolationsLightAndDark(
  page: Page,
  opts: { exclude?: string[] } = {},
): Promise<Record<"light" | "dark", unknown[]>> {
  const out: Record<"light" | "dark", unknown[]> = { light: [], dark: [] };
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme });
    out[colorScheme] = await seriousViolations(page, opts);
  }
  await page.emulateMedia({ colorScheme: null });
  return out;
}
