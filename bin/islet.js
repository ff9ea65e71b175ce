#!/usr/bin/env -S node --no-node-snapshot --
// The `islet` command. isolated-vm needs --no-node-snapshot: the shebang passes it where the
// OS honours `env -S`; otherwise this script runs itself once more with the flag. The `--` stops
// Node from taking the command's own `--env-file FILE` as its own (Node reads it anywhere).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import module from "node:module";
import { requireNode } from "../scripts/check-node.js";

requireNode();
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-v")) {
  // Asked often by scripts and installers: answered without loading the CLI or the TypeScript
  // stripper (main/core/version.ts follows package.json; a test checks both say the same).
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
  console.log(`islet ${pkg.version}`);
} else if (!process.execArgv.includes("--no-node-snapshot")) {
  const relaunch = ["--no-node-snapshot", ...process.execArgv, "--", ...process.argv.slice(1)];
  const child = spawnSync(process.execPath, relaunch, { stdio: "inherit" });
  process.exit(child.status ?? 1);
} else {
  // Caches compiled (and type-stripped) modules on disk: start-up drops several-fold.
  module.enableCompileCache?.();
  const { main } = await import("../main/cli/main.ts");
  process.exitCode = await main(args);
}
