/**
 * `islet run` waits for MCP servers before its one request, but only so long: a server that
 * never answers does not hold the turn, one line names those, and a ready server's tools are
 * offered.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { EVERYTHING } from "../mcp/testing/servers.ts";
import { islet, tempDirs } from "./testing/islet.ts";

test("islet run waits for MCP servers only until its limit: those still starting are named in one line, those that could not start in one line a reason, the ready one's tools offered", async () => {
  const dirs = await tempDirs();
  const model = await startFakeOpenAI([{ text: ["Done."] }]);
  try {
    const mcp = path.join(dirs.home, "config", "mcp");
    await mkdir(mcp, { recursive: true });
    await writeFile(
      path.join(mcp, "everything.yaml"),
      `command: ${JSON.stringify(process.execPath)}\nargs: [${JSON.stringify(EVERYTHING)}, stdio]\n`,
    );
    // Starts, then never answers `initialize` (its own limit is 30 s).
    await writeFile(
      path.join(mcp, "hung.yaml"),
      `command: ${JSON.stringify(process.execPath)}\nargs: ["-e", "setInterval(() => {}, 1000)"]\n`,
    );
    await writeFile(
      path.join(mcp, "stuck.yaml"),
      `command: ${JSON.stringify(process.execPath)}\nargs: ["-e", "setInterval(() => {}, 1000)"]\n`,
    );
    // Two whose program is not installed (as `bun` often is not): one line for both.
    for (const name of ["chat-a", "chat-b"])
      await writeFile(path.join(mcp, `${name}.yaml`), "command: islet-no-such-program\n");
    const started = Date.now();
    const ran = await islet(
      [
        "run",
        "--home",
        dirs.home,
        "--workdir",
        dirs.workdir,
        "--provider",
        "openai-compatible",
        "--base-url",
        model.url,
        "--model",
        "m",
        "hi",
      ],
      // Long enough for server-everything on a loaded machine; far below the hung one's 30 s.
      { ISLET_MCP_START_WAIT_MS: "8000" },
    );
    const took = Date.now() - started;
    assert.equal(ran.code, 0, ran.stderr);
    assert.equal(ran.stdout, "Done.\n");
    // One line for both, and nothing when the run ends and stops them: that is no failure.
    assert.match(
      ran.stderr,
      /^MCP servers "hung", "stuck" are still starting: the turn goes on, and their tools join once they run$/m,
    );
    assert.doesNotMatch(ran.stderr, /everything/);
    const notRunning = ran.stderr.split("\n").filter((l) => l.includes("not running"));
    assert.equal(notRunning.length, 1, ran.stderr);
    assert.match(
      notRunning[0]!,
      /^warning: MCP servers "chat-a", "chat-b" are not running: could not start: command "islet-no-such-program" was not found/,
    );
    assert.ok(took < 25_000, `the run took ${took} ms`);
    const offered = (
      model.chatRequests[0].body as { tools: { function: { name: string } }[] }
    ).tools.map((t) => t.function.name);
    assert.ok(offered.includes("mcp__everything__echo"), offered.join(","));
  } finally {
    await model.close();
    await dirs.clean();
  }
});
