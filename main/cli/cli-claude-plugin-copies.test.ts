/**
 * Two copies of one Claude Code plugin (a folder put in the plugins dir by hand, and a
 * marketplace pack that carries it too), through the real binary: `plugins list` shows both, the
 * second as shadowed, with one note naming them; `plugins show` names the other copy; `--json`
 * the same as data. Nothing about them is said at every command.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { islet, tempDirs } from "./testing/islet.ts";

let dirs: Awaited<ReturnType<typeof tempDirs>>;
const copy = () => path.join(dirs.home, "plugins", "market", "plugins", "notes");

before(async () => {
  dirs = await tempDirs();
  const files: Record<string, string> = {
    "notes/.claude-plugin/plugin.json": JSON.stringify({ name: "notes" }),
    "notes/commands/jot.md": "Jot $ARGUMENTS\n",
    "market/.origin.yaml": `url: file:///market.git\ncommit: ${"c".repeat(40)}\ninstalled_at: 2026-01-01T00:00:00.000Z\nvendored: true\n`,
    "market/plugins/notes/.claude-plugin/plugin.json": JSON.stringify({ name: "notes" }),
    "market/plugins/notes/commands/jot.md": "Jot, as the marketplace has it: $ARGUMENTS\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(dirs.home, "plugins", rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
});
after(() => dirs.clean());

const args = (...more: string[]) => [...more, "--home", dirs.home, "--workdir", dirs.workdir];

test("plugins list shows both copies, the second shadowed, with one note", async () => {
  const ran = await islet(args("plugins", "list"));
  assert.equal(ran.code, 0, ran.stderr);
  assert.match(
    ran.stdout,
    /^ {2}notes {2}active {5}1 command\n {2}notes {2}shadowed {3}1 command$/m,
  );
  assert.ok(
    ran.stdout.includes(
      `${path.join(dirs.home, "plugins", "market")}: 1 plugin of pack market does not load: the global folder notes has one under the same name (notes); rename or remove one of the two copies`,
    ),
    ran.stdout,
  );
  assert.doesNotMatch(ran.stderr, /notes/);
});

test("plugins show names the other copy; --json lists it", async () => {
  const shown = await islet(args("plugins", "show", "notes"));
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /^Status: +active$/m);
  assert.ok(shown.stdout.includes(`Also in:     ${copy()} (not loaded)`), shown.stdout);
  const json = await islet(args("plugins", "show", "notes", "--json"));
  const data = JSON.parse(json.stdout) as { copies: { dir: string; status: string }[] };
  assert.deepEqual(data.copies, [{ dir: copy(), status: "shadowed" }]);
});
