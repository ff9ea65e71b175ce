// `npm test`: the whole suite (the e2e specs against `islet serve`), then the renderer's tests
// (its .tsx components compiled as they load: scripts/tsx-hooks.js), then the example plugins'
// suites once more on the QuickJS backend (the sandbox and runtime suites already loop over both
// backends themselves), then the e2e specs against the desktop app in real Electron (reported
// skipped, with the reason, where there is no Electron binary; e2e/support/target.ts). The app is
// built first when its build is missing or stale; the last line adds every pass up:
// "N passed, N failed, N skipped".
import { spawn } from "node:child_process";
import { requireNode } from "./check-node.js";

requireNode();
const { buildIfStale } = await import("./build-if-stale.ts");
buildIfStale();

const node = [
  process.execPath,
  "--no-node-snapshot",
  "--test",
  "--test-reporter=spec",
  "--test-reporter-destination=stdout",
];
const runs = [
  {
    env: { ISLET_E2E_TARGET: "serve" },
    globs: [
      "main/**/*.test.ts",
      "plugins/**/*.test.ts",
      "bench/**/*.test.ts",
      "e2e/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
  },
  {
    label: "renderer",
    env: {},
    // A test that waits for ever fails instead (a fake answer never given, say).
    args: ["--import", "./scripts/tsx-hooks.js", "--test-timeout=30000"],
    globs: ["renderer/**/*.test.ts", "renderer/**/*.test.tsx"],
  },
  { env: { ISLET_TEST_PLUGIN_RUNTIME: "quickjs" }, globs: ["plugins/**/*.test.ts"] },
  { env: { ISLET_E2E_TARGET: "electron" }, globs: ["e2e/**/*.test.ts"] },
];
/** Runs one pass, its report passed through as it comes, and returns its summary's counts. */
function runPass(run) {
  const counts = { pass: 0, fail: 0, skipped: 0, cancelled: 0 };
  let pending = "";
  const tally = (text) => {
    const lines = (pending + text).split("\n");
    pending = lines.pop();
    for (const line of lines) {
      const summary = /^ℹ (pass|fail|skipped|cancelled) (\d+)$/.exec(line);
      if (summary) counts[summary[1]] += Number(summary[2]);
    }
  };
  return new Promise((resolve) => {
    const child = spawn(node[0], [...node.slice(1), ...(run.args ?? []), ...run.globs], {
      stdio: ["inherit", "pipe", "inherit"],
      env: { ...process.env, ...run.env },
    });
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      tally(chunk.toString());
    });
    child.on("close", (code) => {
      tally("\n");
      resolve({ ...counts, ok: code === 0 });
    });
  });
}

const total = { pass: 0, fail: 0, skipped: 0 };
let failed = false;
for (const run of runs) {
  const label =
    run.label ??
    (Object.entries(run.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ") ||
      "default backend");
  process.stdout.write(`\n▶ ${label}: ${run.globs.join(" ")}\n`);
  const counts = await runPass(run);
  total.pass += counts.pass;
  total.skipped += counts.skipped;
  // A pass that crashed before its summary still fails the run, and counts as one failure.
  const fails = counts.fail + counts.cancelled;
  total.fail += counts.ok || fails > 0 ? fails : 1;
  if (!counts.ok) failed = true;
}
process.stdout.write(`\n${total.pass} passed, ${total.fail} failed, ${total.skipped} skipped\n`);
process.exit(failed ? 1 : 0);
