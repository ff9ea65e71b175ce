/**
 * `islet run` ends after the hook commands its turn did not wait for: an `async: true` Stop hook
 * (a notifier, a logger) gets to finish instead of being stopped with the engine, and the person
 * is told what is being waited for. A real `islet` process, a real shell hook, a loopback model.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { islet, tempDirs } from "./testing/islet.ts";

test("a one-shot run waits for its async Stop hook to finish before it exits", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([{ text: ["Done."] }]);
  try {
    const marker = path.join(dirs.workdir, "logged.txt");
    await mkdir(path.join(dirs.home, "config", "hooks"), { recursive: true });
    await writeFile(
      path.join(dirs.home, "config", "hooks", "log.json"),
      JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [
                {
                  type: "command",
                  async: true,
                  // Long after the turn's own end: the run must still be there when it writes.
                  command: 'sleep 1.5; echo "turn logged" > "$CLAUDE_PROJECT_DIR/logged.txt"',
                },
              ],
            },
          ],
        },
      }),
    );
    const ran = await islet([
      "run",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.url,
      "--model",
      "m",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "hello",
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /Done\./);
    assert.ok(existsSync(marker), `the hook was stopped half way:\n${ran.stderr}`);
    assert.equal(await readFile(marker, "utf8"), "turn logged\n");
    assert.match(
      ran.stderr,
      /^waiting for a hook still running \(log\.json:Stop\); Ctrl-C stops it$/m,
    );
  } finally {
    await server.close();
    await dirs.clean();
  }
});
