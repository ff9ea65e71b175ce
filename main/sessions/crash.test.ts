/** A writer SIGKILLed mid-append loses nothing it had finished writing (SPEC §11 reliability). */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { crashContent } from "./crash-writer.ts";
import { SessionStore } from "./store.ts";
import { baseSession, msg, tempDir } from "./testing.ts";
import { formatProblem } from "../host/problem.ts";

const WRITER = fileURLToPath(new URL("./crash-writer.ts", import.meta.url));

/** Runs the writer until it has reported at least `minRecords`, kills it, returns the last index. */
function runAndKill(dir: string, id: string, minRecords: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WRITER, dir, id], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let killed = false;
    child.stdout.setEncoding("utf8");
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    child.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (!killed && out.split("\n").length > minRecords) {
        killed = true;
        // Kill at a slightly random moment so runs land at different points of a write.
        setTimeout(() => child.kill("SIGKILL"), Math.random() * 3);
      }
    });
    child.on("error", reject);
    child.on("close", (code, signal) => {
      if (signal !== "SIGKILL") return reject(new Error(`writer exited early (${code}): ${err}`));
      // Only newline-terminated reports are appends that had returned.
      const done = out.split("\n").slice(0, -1).map(Number);
      resolve(done.length === 0 ? -1 : done[done.length - 1]);
    });
  });
}

test(
  "a writer killed mid-write loses no record whose append had returned",
  { timeout: 60_000 },
  async (t) => {
    const dir = tempDir(t);
    let tornTails = 0;
    for (let round = 0; round < 4; round++) {
      const store = new SessionStore(dir);
      const id = await store.create(baseSession);
      const lastReported = await runAndKill(dir, id, 150 + round * 40);

      const loaded = await store.load(id);
      const n = loaded.messages.length;
      assert.ok(
        n - 1 >= lastReported,
        `loaded ${n} messages but the writer had reported m${lastReported}`,
      );
      loaded.messages.forEach((m, i) => {
        assert.equal(m.id, `m${i}`, "an unbroken prefix m0..mn");
        assert.equal(m.content, crashContent(i));
      });
      // The only thing a kill may leave is one torn last line.
      assert.ok(loaded.warnings.length <= 1, loaded.warnings.map(formatProblem).join("\n"));
      if (loaded.warnings.length === 1) {
        assert.match(formatProblem(loaded.warnings[0]), /dropped torn last line/);
        tornTails++;
      }

      store.appendMessage(id, msg("after", "user", "resumed"));
      await store.flush(id);
      await store.close();
      const resumed = await new SessionStore(dir).load(id);
      assert.deepEqual(resumed.warnings, []);
      assert.equal(resumed.messages.length, n + 1);
      assert.equal(resumed.messages[n].id, "after");
    }
    t.diagnostic(`torn tails seen and repaired: ${tornTails} of 4 kills`);
  },
);
