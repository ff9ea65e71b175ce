import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { gitEnv, runGit } from "./git-run.ts";

test("git runs under npm's environment (EDITOR, PAGER set), which simple-git would refuse", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-gitrun-"));
  try {
    const env = { ...process.env, EDITOR: "vi", VISUAL: "vi", PAGER: "less", GIT_EDITOR: "vi" };
    assert.match(await runGit(["--version"], { cwd: dir, env }), /^git version /);
    const passed = gitEnv(env);
    for (const key of ["EDITOR", "VISUAL", "PAGER", "GIT_EDITOR"])
      assert.equal(passed[key], undefined, key);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a pack's fetch starts no background maintenance (git maintenance / gc --auto)", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-gitrun-"));
  try {
    const env = { PATH: process.env.PATH, HOME: dir, GIT_CONFIG_NOSYSTEM: "1" };
    const get = (key: string) => runGit(["config", "--get", key], { cwd: dir, env });
    assert.equal((await get("maintenance.auto")).trim(), "false");
    assert.equal((await get("gc.auto")).trim(), "0");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
