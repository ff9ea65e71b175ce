/** Tool approval goes to the conversation's own QuestionPort, else to the engine's. */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { Question, QuestionPort } from "../host/questions.ts";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { createEngine } from "./bootstrap.ts";

function recording(answer: "allow" | "deny"): { port: QuestionPort; asked: Question[] } {
  const asked: Question[] = [];
  const port = {
    ask: async (question: Question) => {
      asked.push(question);
      return answer;
    },
  } as QuestionPort;
  return { port, asked };
}

const write = (file: string) => ({
  toolCalls: [{ name: "Write", arguments: { path: file, content: "hi\n" } }],
});

test("a conversation's own port approves its tool calls; others fall back to the engine's", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-engine-questions-"));
  const workdir = path.join(root, "work");
  await mkdir(workdir);
  const srv = await startFakeOpenAI([
    write("mine.txt"),
    { text: ["wrote it"] },
    write("theirs.txt"),
    { text: ["did not"] },
  ]);
  const engineLevel = recording("deny");
  const own = recording("allow");
  try {
    const engine = await createEngine({
      home: path.join(root, "home"),
      workdir,
      env: {},
      flags: { provider: "openai-compatible", baseUrl: srv.url, model: "m" },
      questions: engineLevel.port,
      warn: () => {},
    });
    const mine = await engine.open({ emit: () => {}, questions: own.port });
    await mine.submit("write mine");
    const other = await engine.open({ emit: () => {} });
    await other.submit("write theirs");

    assert.deepEqual(
      own.asked.map((q) => q.kind === "approval" && [q.tool, q.arguments.path]),
      [["Write", "mine.txt"]],
    );
    assert.deepEqual(
      engineLevel.asked.map((q) => q.kind === "approval" && [q.tool, q.arguments.path]),
      [["Write", "theirs.txt"]],
    );
    assert.ok(existsSync(path.join(workdir, "mine.txt")));
    assert.ok(!existsSync(path.join(workdir, "theirs.txt")));
    await mine.close();
    await other.close();
    await engine.close();
  } finally {
    await srv.close();
    await rm(root, { recursive: true, force: true });
  }
});
