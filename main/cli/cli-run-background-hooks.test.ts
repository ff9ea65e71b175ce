/**
 * `islet run` ends after the session's last hook commands that went on in the background: an
 * `async: true` Stop hook (a notifier, a logger) gets to finish instead of being stopped with the
 * engine, and the person is told what is being waited for; background work for later (a
 * SessionStart that builds something, an `asyncRewake` review) is not waited for. A real `islet`
 * process, real shell hooks, a loopback model.
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
          // Work for later (a tool built for the next sessions, as security-guidance does): not
          // waited for, stopped when the run ends.
          SessionStart: [
            {
              hooks: [
                {
                  type: "command",
                  command: `echo '{"async":true,"asyncTimeout":60000}'; sleep 60`,
                },
              ],
            },
          ],
          Stop: [
            {
              hooks: [
                {
                  type: "command",
                  async: true,
                  // Long after the turn's own end: the run must still be there when it writes.
                  command: 'sleep 1.5; echo "turn logged" > "$CLAUDE_PROJECT_DIR/logged.txt"',
                },
                // Its word would be for a next step, which a one-shot run does not have.
                { type: "command", asyncRewake: true, command: "sleep 60" },
              ],
            },
          ],
        },
      }),
    );
    const started = performance.now();
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
    const took = performance.now() - started;
    assert.ok(took < 30_000, `the SessionStart and asyncRewake hooks were waited for (${took} ms)`);
  } finally {
    await server.close();
    await dirs.clean();
  }
});
