#!/usr/bin/env -S node --no-node-snapshot
// The `islet` command. isolated-vm needs --no-node-snapshot: the shebang passes it where the
// OS honours `env -S`; otherwise this script runs itself once more with the flag.
import { spawnSync } from "node:child_process";
import module from "node:module";

if (!process.execArgv.includes("--no-node-snapshot")) {
  const args = ["--no-node-snapshot", ...process.execArgv, ...process.argv.slice(1)];
  const child = spawnSync(process.execPath, args, { stdio: "inherit" });
  process.exit(child.status ?? 1);
} else {
  // Caches compiled (and type-stripped) modules on disk: start-up drops several-fold.
  module.enableCompileCache?.();
  const { main } = await import("../main/cli/main.ts");
  process.exitCode = await main(process.argv.slice(2));
}
