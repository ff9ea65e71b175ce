// docs/plugins.md's first plugin, run exactly as the guide writes it: its files from the guide's
// own code blocks, its commands through the real binary. If the guide drifts, this fails.
import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { islet, tempDirs } from "./testing/islet.ts";

const GUIDE = fileURLToPath(new URL("../../docs/plugins.md", import.meta.url));

/** The section's code blocks: files (named by their first-line comment) and shell lines. */
function firstPluginSection(): { files: Map<string, string>; shell: string[] } {
  const text = readFileSync(GUIDE, "utf8");
  const start = text.indexOf("## Your first plugin");
  assert.ok(start >= 0, "the guide starts with its first plugin");
  const section = text.slice(start, text.indexOf("\n## ", start + 1));
  const files = new Map<string, string>();
  const shell: string[] = [];
  for (const [, lang, body] of section.matchAll(/```(\w+)\n([\s\S]*?)```/g)) {
    if (lang === "sh") {
      shell.push(...body!.split("\n").filter((l) => l.trim() !== ""));
      continue;
    }
    const named = /^(?:\/\/|#) (~\/\.islet\/\S+)\n/.exec(body!);
    assert.ok(named, `a ${lang} block names its file on its first line`);
    files.set(named[1]!, body!);
  }
  return { files, shell };
}

test("the guide's first plugin works as written, from the first turn, with nothing to grant", async () => {
  const { files, shell } = firstPluginSection();
  assert.deepEqual([...files.keys()].sort(), [
    "~/.islet/plugins/hello/index.ts",
    "~/.islet/plugins/hello/plugin.yaml",
  ]);
  const dirs = await tempDirs();
  const model = await startFakeOpenAI([{ text: ["Two files."] }]);
  try {
    for (const [name, body] of files) {
      const file = path.join(dirs.home, name.replace("~/.islet/", ""));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, body);
    }
    const where = ["--home", dirs.home, "--workdir", dirs.workdir];
    const provider = ["--provider", "openai-compatible", "--base-url", model.url, "--model", "m"];
    // The guide's own command lines, each with this test's home and model.
    const words = (line: string) =>
      [...line.replace(/\s+#.*$/, "").matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
    const [hello, prompt, show] = shell.map(words);
    assert.deepEqual(hello, ["islet", "run", "/hello", "Ann"]);

    const greeted = await islet([...hello!.slice(1), ...where]);
    assert.equal(greeted.code, 0, greeted.stderr);
    assert.equal(greeted.stdout, "Hello, Ann!\n");
    assert.doesNotMatch(greeted.stderr, /warning|not granted|held back/i);

    const turn = await islet([...prompt!.slice(1), ...where, ...provider]);
    assert.equal(turn.code, 0, turn.stderr);
    assert.match(turn.stderr, /hello: turn 1 of this engine, \d+ tokens so far/);
    assert.match(turn.stdout, /Two files\./);

    const shown = await islet([...show!.slice(1), ...where]);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /beforeChat/i);
    assert.match(shown.stdout, /hello/);
  } finally {
    await model.close();
    await dirs.clean();
  }
});
