// `npm test`: the whole suite (the e2e specs against `islet serve`), then the renderer's tests
// (its .tsx components compiled as they load: scripts/tsx-hooks.js), then the example plugins'
// suites once more on the QuickJS backend (the sandbox and runtime suites already loop over both
// backends themselves), then the e2e specs against the desktop app in real Electron (reported
// skipped, with the reason, where there is no Electron binary; e2e/support/target.ts).
import { spawnSync } from "node:child_process";

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
let failed = false;
for (const run of runs) {
  const label =
    run.label ??
    (Object.entries(run.env)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ") ||
      "default backend");
  process.stdout.write(`\n▶ ${label}: ${run.globs.join(" ")}\n`);
  const r = spawnSync(node[0], [...node.slice(1), ...(run.args ?? []), ...run.globs], {
    stdio: "inherit",
    env: { ...process.env, ...run.env },
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
