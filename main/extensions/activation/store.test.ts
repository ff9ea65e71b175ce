/** The activation records: per workspace real path, atomic, and a damaged file is one line. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { activationFile, ActivationStore } from "./store.ts";
import { formatProblem } from "../../host/problem.ts";

async function temp(): Promise<{ root: string; home: string; work: string }> {
  const root = await mkdtemp(path.join(tmpdir(), "islet-activation-store-"));
  const work = path.join(root, "work");
  await mkdir(work);
  return { root, home: path.join(root, "home"), work };
}

test("records are per workspace, keyed by its real path (a symlink to it is the same workspace)", async () => {
  const { root, home, work } = await temp();
  try {
    const link = path.join(root, "link");
    await symlink(work, link);
    const other = path.join(root, "other");
    await mkdir(other);
    await new ActivationStore(home, work, () => {}).record("lint", "f1");
    assert.deepEqual(
      (await new ActivationStore(home, link, () => {}).list()).map((r) => [
        r.plugin,
        r.fingerprint,
      ]),
      [["lint", "f1"]],
    );
    assert.deepEqual(await new ActivationStore(home, other, () => {}).list(), []);
    const store = new ActivationStore(home, work, () => {});
    await store.forget("lint");
    assert.deepEqual(await store.list(), []);
    // Written through a temp file and a rename: nothing else is left beside it.
    assert.deepEqual(await readdir(home), ["activation.json"]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("a damaged file is one warning line and reads as empty; the next record keeps it aside", async () => {
  const { root, home, work } = await temp();
  try {
    await mkdir(home);
    await writeFile(activationFile(home), "{ not json");
    const warnings: string[] = [];
    const store = new ActivationStore(home, work, (p) => warnings.push(formatProblem(p)));
    assert.deepEqual(await store.list(), []);
    assert.equal(warnings.length, 1);
    assert.ok(!warnings[0].includes("\n"));
    assert.match(warnings[0], /activation\.json: not valid JSON; treating it as empty/);
    await store.record("lint", "f1");
    assert.deepEqual(
      (await store.list()).map((r) => r.plugin),
      ["lint"],
    );
    assert.deepEqual((await readdir(home)).sort(), ["activation.json", "activation.json.bad"]);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
