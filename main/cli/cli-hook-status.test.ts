/**
 * A Claude Code hook's `statusMessage` shows on the CLI's activity line while the hook runs,
 * before the call it guards: a real `islet run` against the loopback model, the hook a real
 * command. A hook whose matcher does not match shows nothing.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { islet, tempDirs } from "./testing/islet.ts";

test("islet run shows a running hook's statusMessage before the call's result", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([
    { toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }] },
    { text: ["It says hello."] },
  ]);
  try {
    await writeFile(path.join(dirs.workdir, "notes.txt"), "hello\n");
    const hooks = path.join(dirs.home, "config", "hooks");
    await mkdir(hooks, { recursive: true });
    await writeFile(
      path.join(hooks, "status.yaml"),
      [
        "PreToolUse:",
        "  - matcher: Read",
        "    hooks:",
        "      - command: cat > /dev/null",
        "        statusMessage: Checking what is read…",
        "  - matcher: Write",
        "    hooks:",
        "      - command: cat > /dev/null",
        "        statusMessage: Never shown",
        "",
      ].join("\n"),
    );
    const ran = await islet([
      "run",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.url,
      "--model",
      "m",
      "--yes",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "What does notes.txt say?",
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    const lines = ran.stderr.split("\n");
    const status = lines.findIndex((l) => l === "… status.yaml:PreToolUse: Checking what is read…");
    const result = lines.findIndex((l) => /✓ Read/.test(l));
    assert.ok(status >= 0, ran.stderr);
    assert.ok(result > status, ran.stderr);
    assert.ok(!ran.stderr.includes("Never shown"), ran.stderr);
  } finally {
    await server.close();
    await dirs.clean();
  }
});
