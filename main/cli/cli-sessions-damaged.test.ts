/** `islet sessions` over a sessions folder that holds more than healthy session files. */
import assert from "node:assert/strict";
import { mkdir, readFile, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { damagedSession } from "../sessions/testing.ts";
import { islet, tempDirs } from "./testing/islet.ts";

const ID = "20261121-100000-dmgd";

test("sessions list skips a folder and a link named like sessions; show, list and resume agree on damage", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([{ text: ["Resumed."] }]);
  try {
    const sessions = path.join(dirs.home, "sessions");
    await mkdir(path.join(sessions, "x.jsonl"), { recursive: true });
    const file = path.join(sessions, `${ID}.jsonl`);
    await writeFile(file, damagedSession(ID));
    const secret = path.join(dirs.root, "secret.txt");
    await writeFile(secret, "not yours\n");
    await symlink(secret, path.join(sessions, "20261121-100000-link.jsonl"));

    const list = await islet(["sessions", "list", "--json", "--home", dirs.home]);
    assert.equal(list.code, 0, list.stderr);
    const rows = JSON.parse(list.stdout) as { id: string; messageCount: number }[];
    assert.deepEqual(
      rows.map((r) => [r.id, r.messageCount]),
      [[ID, 2]],
    );
    assert.equal(
      list.stderr,
      `warning: ${path.join(sessions, "20261121-100000-link.jsonl")} is a symbolic link; session files are never followed: skipped\n` +
        `warning: ${path.join(sessions, "x.jsonl")} is not a file: skipped\n`,
    );

    const show = await islet(["sessions", "show", ID, "--json", "--home", dirs.home]);
    assert.equal(show.code, 0, show.stderr);
    assert.equal((JSON.parse(show.stdout) as { messages: unknown[] }).messages.length, 2);
    const damage = show.stderr.split("\n").filter(Boolean);
    assert.equal(damage.length, 3, show.stderr);

    // Resuming reports the very same lines.
    const resumed = await islet([
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
      "--session",
      ID,
      "go on",
    ]);
    assert.equal(resumed.code, 0, resumed.stderr);
    for (const line of damage) assert.ok(resumed.stderr.includes(line), `resume lacks: ${line}`);

    const link = await islet(["sessions", "show", "20261121-100000-link", "--home", dirs.home]);
    assert.equal(link.code, 1);
    assert.equal(
      link.stderr,
      `islet: ${path.join(sessions, "20261121-100000-link.jsonl")} is a symbolic link; session files are never followed\n`,
    );
    const rename = await islet([
      "sessions",
      "rename",
      "20261121-100000-link",
      "pwned",
      "--home",
      dirs.home,
    ]);
    assert.equal(rename.code, 1);
    assert.equal(await readFile(secret, "utf8"), "not yours\n");
  } finally {
    await server.close();
    await dirs.clean();
  }
});
