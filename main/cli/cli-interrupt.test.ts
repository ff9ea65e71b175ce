/** Ctrl-C and time limits reach tools that would otherwise hold the engine: real `islet` processes. */
import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { startIslet, tempDirs } from "./testing/islet.ts";

function runArgs(url: string, dirs: { home: string; workdir: string }, prompt: string): string[] {
  return [
    "run",
    "--json",
    "--provider",
    "openai-compatible",
    "--base-url",
    url,
    "--model",
    "m",
    "--yes",
    "--home",
    dirs.home,
    "--workdir",
    dirs.workdir,
    prompt,
  ];
}

test("Ctrl-C during a Grep with a catastrophic pattern stops the turn and islet exits", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([
    { toolCalls: [{ name: "Grep", arguments: { pattern: "^(a+)+$", output_mode: "content" } }] },
    { text: ["done"] },
  ]);
  await writeFile(path.join(dirs.workdir, "victim.txt"), `${"a".repeat(34)}!\n`);
  const islet = startIslet(runArgs(server.url, dirs, "search"));
  try {
    await islet.waitFor(/"type":"tool_call"/);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the search is under way
    islet.child.kill("SIGINT");
    const code = await islet.exit(10_000);
    assert.notEqual(code, "still running", "islet ignored Ctrl-C during the search");
    assert.match(islet.output().stdout, /"type":"tool_result".*"name":"Grep"/);
  } finally {
    islet.child.kill("SIGKILL");
    await server.close();
    await dirs.clean();
  }
});
