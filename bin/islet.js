#!/usr/bin/env -S node --no-node-snapshot
// The `islet` command. isolated-vm needs --no-node-snapshot: the shebang passes it where the
// OS honours `env -S`; otherwise re-run this script once with the flag.
import { spawnSync } from "node:child_process";

if (!process.execArgv.includes("--no-node-snapshot")) {
  const child = spawnSync(
    process.execPath,
    ["--no-node-snapshot", ...process.execArgv, ...process.argv.slice(1)],
    {
      stdio: "inherit",
    },
  );
  process.exit(child.status ?? 1);
} else {
  await import("../main/cli/main.ts");
}
