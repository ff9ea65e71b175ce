// The approval question of a Write or Patch carries the file's text now and after, bounded.
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import type { Question } from "../host/questions.ts";
import { ApprovalPolicy } from "./approval.ts";
import { CHANGE_PREVIEW_MAX, previewChange } from "./change-preview.ts";

let dir: string;
before(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "islet-change-"));
  await writeFile(path.join(dir, "a.txt"), "one\ntwo\nthree\n");
  await writeFile(path.join(dir, "twice.txt"), "x\nx\n");
  await writeFile(path.join(dir, "blob.bin"), Buffer.from([1, 2, 0, 3]));
  await writeFile(path.join(dir, "huge.txt"), "y".repeat(CHANGE_PREVIEW_MAX + 1));
});
after(() => rm(dir, { recursive: true, force: true }));

test("Write: a new file is its content; an existing one is the text on disk and after", async () => {
  assert.deepEqual(await previewChange("Write", { path: "new.md", content: "# Hi\n" }, dir), {
    path: "new.md",
    before: null,
    after: "# Hi\n",
  });
  assert.deepEqual(await previewChange("Write", { path: "a.txt", content: "one\n2\n" }, dir), {
    path: "a.txt",
    before: "one\ntwo\nthree\n",
    after: "one\n2\n",
  });
});

test("Patch: the result as the tool will make it, or why it cannot be known", async () => {
  const patch = (file: string, over: Record<string, unknown> = {}) =>
    previewChange("Patch", { path: file, old_string: "x", new_string: "z", ...over }, dir);
  assert.deepEqual(
    await previewChange("Patch", { path: "a.txt", old_string: "two", new_string: "2" }, dir),
    { path: "a.txt", before: "one\ntwo\nthree\n", after: "one\n2\nthree\n" },
  );
  assert.equal((await patch("twice.txt"))?.note, "not-found-in-file", "ambiguous: it will fail");
  assert.equal((await patch("twice.txt", { replace_all: true }))?.after, "z\nz\n");
  assert.equal((await patch("a.txt"))?.note, "not-found-in-file");
});

test("binary and huge files are named with their size, not sent; other tools get nothing", async () => {
  assert.deepEqual(await previewChange("Write", { path: "blob.bin", content: "t" }, dir), {
    path: "blob.bin",
    before: null,
    after: null,
    note: "binary",
    size: 4,
  });
  const huge = await previewChange("Write", { path: "huge.txt", content: "t" }, dir);
  assert.equal(huge?.note, "too-large");
  assert.equal(huge?.before, null);
  assert.equal(await previewChange("Bash", { command: "ls" }, dir), undefined);
});

test("the approval question a person sees carries the change", async () => {
  const asked: Question[] = [];
  const policy = new ApprovalPolicy({ globalHome: dir, workdir: dir });
  await policy.decide(
    "Write",
    { path: "a.txt", content: "new\n" },
    {
      questions: {
        ask: async (q) => {
          asked.push(q as Question);
          return "deny" as never;
        },
      },
    },
  );
  const q = asked[0];
  assert.ok(q.kind === "approval");
  assert.deepEqual(q.change, { path: "a.txt", before: "one\ntwo\nthree\n", after: "new\n" });
});
