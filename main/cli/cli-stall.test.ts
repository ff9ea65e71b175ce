/**
 * `islet run` against stalled model servers, end to end: a real `islet` process, limits from a
 * real providers.yaml. A stall ends the run with one clear error in seconds (not 20 minutes), and
 * a partial answer from a stalled attempt is withdrawn, never saved.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import type { FakeServer } from "../providers/testing/fake-server.ts";
import { SessionStore } from "../sessions/store.ts";
import { islet, tempDirs } from "./testing/islet.ts";

const TEST = { timeout: 60_000 };

async function configure(home: string, server: FakeServer, timeouts: string): Promise<void> {
  await mkdir(path.join(home, "config"), { recursive: true });
  await writeFile(
    path.join(home, "config", "providers.yaml"),
    `default: { provider: stuck, model: m }
providers:
  stuck: { type: openai-compatible, base_url: ${server.url}, timeouts: ${timeouts} }
`,
  );
}

function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test(
  "islet run: a server that never answers ends the run with a first_token error in seconds",
  TEST,
  async () => {
    const dirs = await tempDirs();
    const server = await startFakeOpenAI([{ silent: true }, { silent: true }, { silent: true }]);
    try {
      await configure(dirs.home, server, "{ first_token: 0.5 }");
      const t0 = performance.now();
      const ran = await islet([
        "run",
        "--json",
        "--home",
        dirs.home,
        "--workdir",
        dirs.workdir,
        "hi",
      ]);
      const ms = performance.now() - t0;
      assert.equal(ran.code, 1, ran.stderr);
      assert.ok(ms < 25_000, `the run took ${ms} ms`);
      const errors = jsonLines(ran.stdout).filter((e) => e.type === "error");
      assert.equal(errors.length, 1);
      assert.equal(errors[0].errorType, "network");
      assert.match(
        String(errors[0].message),
        /^stuck: no first token from m at http:\/\/127\.0\.0\.1:\d+\/v1 after 0\.5 s \(first_token timeout\) — raise providers\.stuck\.timeouts\.first_token in providers\.yaml/,
      );
      assert.equal(server.chatRequests.length, 2, "a stall is retried once");
    } finally {
      await server.close();
      await dirs.clean();
    }
  },
);

test(
  "islet run --json: a partial answer from a stalled attempt is withdrawn and never saved",
  TEST,
  async () => {
    const dirs = await tempDirs();
    const server = await startFakeOpenAI([
      { text: ["The answer is ", "forty"], hang: true },
      { text: ["The answer is ", "42."] },
    ]);
    try {
      await configure(dirs.home, server, "{ idle: 0.5 }");
      const ran = await islet([
        "run",
        "--json",
        "--home",
        dirs.home,
        "--workdir",
        dirs.workdir,
        "hi",
      ]);
      assert.equal(ran.code, 0, ran.stderr);
      const events = jsonLines(ran.stdout);
      const withdrawn = events.filter((e) => e.type === "assistant_withdrawn");
      assert.equal(withdrawn.length, 1);
      assert.equal(withdrawn[0].text, "The answer is forty");
      assert.match(String(withdrawn[0].reason), /\(idle timeout\)/);
      // A reader that drops what was withdrawn sees the answer once.
      let shown = "";
      for (const e of events) {
        if (e.type === "assistant_delta") shown += String(e.text);
        if (e.type === "assistant_withdrawn") shown = shown.slice(0, -String(e.text).length);
      }
      assert.equal(shown, "The answer is 42.");
      assert.deepEqual(
        events.filter((e) => e.type === "assistant").map((e) => e.text),
        ["The answer is 42."],
      );
      const done = events.at(-1)!;
      assert.equal(done.type, "done");
      const saved = await SessionStore.forHome(dirs.home).load(String(done.sessionId));
      assert.deepEqual(
        saved.messages.map((m) => [m.role, m.content]),
        [
          ["user", "hi"],
          ["assistant", "The answer is 42."],
        ],
      );
    } finally {
      await server.close();
      await dirs.clean();
    }
  },
);

test(
  "islet run (text): the withdrawn partial is marked on stderr and the answer follows on its own line",
  TEST,
  async () => {
    const dirs = await tempDirs();
    const server = await startFakeOpenAI([
      { text: ["The answer is ", "forty"], hang: true },
      { text: ["The answer is 42."] },
    ]);
    try {
      await configure(dirs.home, server, "{ idle: 0.5 }");
      const ran = await islet(["run", "--home", dirs.home, "--workdir", dirs.workdir, "hi"]);
      assert.equal(ran.code, 0, ran.stderr);
      assert.equal(ran.stdout, "The answer is forty\nThe answer is 42.\n");
      assert.match(ran.stderr, /\[answer withdrawn: the partial answer above is discarded\]/);
      assert.match(ran.stderr, /idle timeout\b.*retrying/);
    } finally {
      await server.close();
      await dirs.clean();
    }
  },
);
