/**
 * What the browser e2e tests share: a real `islet serve` process, Debian's Chromium through
 * playwright-core (never a downloaded browser), and a polling text assertion.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Locator } from "playwright-core";

export const ROOT = fileURLToPath(new URL("../..", import.meta.url));
export const BUILT_PAGE = path.join(ROOT, "out", "renderer", "index.html");

/** Debian's Chromium (or CHROMIUM_PATH), or why there is none. */
export function findChromium(): { path: string } | { missing: string } {
  const candidates = [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    ...(process.env.PATH ?? "").split(path.delimiter).map((dir) => path.join(dir, "chromium")),
  ].filter((p): p is string => typeof p === "string" && p !== "");
  const found = candidates.find((p) => existsSync(p));
  return found
    ? { path: found }
    : { missing: "no Chromium binary (apt-get install chromium, or set CHROMIUM_PATH)" };
}

/** Flags for a quiet, offline headless Chromium (ENGINEERING.md §8). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Serve {
  /** The URL with the token, as printed. */
  url: string;
  /** http://127.0.0.1:PORT */
  origin: string;
  stop(): Promise<void>;
}

/** Starts `islet serve --port 0 …` and resolves with the URL it prints (a loaded CI machine can take long). */
export function startServe(args: string[], timeoutMs = 45_000): Promise<Serve> {
  const child = spawn(
    process.execPath,
    [
      "--no-node-snapshot",
      path.join(ROOT, "main", "cli", "main.ts"),
      "serve",
      "--port",
      "0",
      ...args,
    ],
    { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
  );
  let stdout = "";
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop(child);
      reject(new Error(`islet serve ${why}\nstdout: ${stdout}\nstderr: ${stderr}`));
    };
    const timer = setTimeout(() => fail(`printed no URL within ${timeoutMs} ms`), timeoutMs);
    child.once("exit", (code, signal) => fail(`exited early (${signal ?? code})`));
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      const m = /Islet is serving on (http:\/\/\S+)/.exec(stdout);
      if (!m) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      const url = m[1];
      resolve({ url, origin: new URL(url).origin, stop: () => stop(child) });
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 3000);
    child.once("exit", () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Waits until the locator's visible text contains every one of `expected`, or fails showing it. */
export async function expectText(
  locator: Locator,
  expected: string | RegExp | (string | RegExp)[],
  timeoutMs = 5000,
): Promise<string> {
  const wanted = Array.isArray(expected) ? expected : [expected];
  const deadline = Date.now() + timeoutMs;
  let text = "";
  for (;;) {
    // A read that times out at the deadline keeps the last text seen (the failure shows it).
    const read = await locator
      .innerText({ timeout: Math.max(250, deadline - Date.now()) })
      .catch(() => null);
    if (read !== null) text = read;
    const missing = wanted.filter((w) =>
      typeof w === "string" ? !text.includes(w) : !w.test(text),
    );
    if (missing.length === 0) return text;
    if (Date.now() > deadline)
      throw new Error(
        `expected ${locator} to show ${missing.map(String).join(", ")}; it shows:\n${text || "(nothing)"}`,
      );
    await new Promise((r) => setTimeout(r, 50));
  }
}
