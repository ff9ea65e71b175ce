import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { z } from "zod";
import { JsonStore } from "./json-store.ts";
import { formatProblem } from "../host/problem.ts";

test("a damaged file reads as empty with one line, and is kept aside before the next write", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-json-store-"));
  try {
    const file = path.join(dir, "trust.json");
    await writeFile(file, '{"folders": {"/w": "trusted"');
    const warnings: string[] = [];
    const store = new JsonStore(
      file,
      z.object({ n: z.number() }),
      () => ({ n: 0 }),
      (p) => warnings.push(formatProblem(p)),
    );
    assert.deepEqual(await store.read(), { n: 0 });
    assert.match(warnings[0] ?? "", /trust\.json: not valid JSON; treating it as empty/);
    await Promise.all([
      store.update((d) => ({ n: d.n + 1 })),
      store.update((d) => ({ n: d.n + 1 })),
    ]);
    assert.deepEqual(JSON.parse(await readFile(file, "utf8")), { n: 2 }, "no update was lost");
    assert.equal(await readFile(`${file}.bad`, "utf8"), '{"folders": {"/w": "trusted"');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
