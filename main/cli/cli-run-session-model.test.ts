/**
 * `islet run --session ID` goes on with the model the session last used, as the app and
 * `islet serve` do; an explicit --provider/--model wins and becomes the session's last model; a
 * saved model that cannot be used any more gives one warning and the default. The real `islet`
 * binary against two loopback OpenAI-compatible servers named in providers.yaml.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI, type FakeServer } from "../providers/testing/index.ts";
import { islet, tempDirs } from "./testing/islet.ts";

interface SentBody {
  model: string;
  messages: { role: string; content: string }[];
}

const said = (server: FakeServer, i: number): SentBody => server.chatRequests[i].body as SentBody;

test("islet run --session resumes with the session's last model; --model still wins", async () => {
  const dirs = await tempDirs();
  const a = await startFakeOpenAI([]);
  const b = await startFakeOpenAI([]);
  const providers = (yaml: string) =>
    writeFile(path.join(dirs.home, "config", "providers.yaml"), yaml);
  const run = async (...args: string[]) => {
    const ran = await islet(["run", "--home", dirs.home, "--workdir", dirs.workdir, ...args]);
    assert.equal(ran.code, 0, ran.stderr);
    return ran;
  };
  try {
    await mkdir(path.join(dirs.home, "config"), { recursive: true });
    await providers(
      `default: { provider: a, model: ma }\nproviders:\n  a: { type: openai-compatible, base_url: "${a.url}" }\n  b: { type: openai-compatible, base_url: "${b.url}" }\n`,
    );

    // A session started on b (not the default).
    b.push({ text: ["First answer."] });
    const first = await run("--json", "--provider", "b", "--model", "mb", "First question");
    const done = JSON.parse(first.stdout.trim().split("\n").at(-1)!) as { sessionId: string };
    const id = done.sessionId;
    assert.equal(b.chatRequests.length, 1);

    // Resumed without flags: b and mb again, with the conversation so far; a is not asked.
    b.push({ text: ["Second answer."] });
    await run("--session", id, "Second question");
    assert.equal(a.chatRequests.length, 0, "the default provider was asked instead");
    assert.equal(b.chatRequests.length, 2);
    assert.equal(said(b, 1).model, "mb");
    assert.match(
      said(b, 1)
        .messages.map((m) => m.content)
        .join("\n"),
      /First answer\./,
    );

    // An explicit model wins, and is what the session last used from then on.
    a.push({ text: ["Third answer."] }, { text: ["Fourth answer."] });
    await run("--session", id, "--provider", "a", "--model", "ma2", "Third question");
    assert.equal(said(a, 0).model, "ma2");
    await run("--session", id, "Fourth question");
    assert.equal(said(a, 1).model, "ma2");
    assert.equal(b.chatRequests.length, 2);

    // Its provider gone: one warning naming the session's model, then the default.
    await providers(
      `default: { provider: b, model: mb }\nproviders:\n  b: { type: openai-compatible, base_url: "${b.url}" }\n`,
    );
    b.push({ text: ["Fifth answer."] });
    const fifth = await run("--session", id, "Fifth question");
    assert.equal(said(b, 2).model, "mb");
    assert.match(fifth.stdout, /Fifth answer\./);
    const warnings = fifth.stderr.split("\n").filter((l) => l.startsWith("warning:"));
    assert.equal(warnings.length, 1, fifth.stderr);
    assert.match(warnings[0], /last used a ma2, which cannot be used now \(.*unknown provider "a"/);
  } finally {
    await a.close();
    await b.close();
    await dirs.clean();
  }
});
