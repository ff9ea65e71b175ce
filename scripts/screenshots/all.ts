/**
 * Retakes every screen's screenshots, light and dark, into docs/screenshots/ (after
 * `npm run build`; needs Chromium): the chat from its own script, the other screens from their
 * e2e specs, which save them when ISLET_SCREENSHOTS names a folder.
 *
 *   node --no-node-snapshot scripts/screenshots/all.ts
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { ROOT } from "../../e2e/support/browser.ts";

const OUT = path.join(ROOT, "docs", "screenshots");
const SPECS = [
  "plugin-browser",
  "catalog",
  "sessions",
  "settings",
  "plugin-editor",
  "models",
  "install-link",
];
const node = [process.execPath, "--no-node-snapshot"];

const runs: string[][] = [
  [path.join(ROOT, "scripts", "screenshots", "chat.ts")],
  ["--test", ...SPECS.map((s) => path.join(ROOT, "e2e", `${s}.test.ts`))],
];
let failed = false;
for (const args of runs) {
  const r = spawnSync(node[0], [...node.slice(1), ...args], {
    stdio: "inherit",
    env: { ...process.env, ISLET_SCREENSHOTS: OUT },
  });
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
