import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { PluginFiles } from "./files.ts";

describe("plugin file API", () => {
  let base: string;
  let workdir: string;
  let pluginDir: string;
  let outside: string;
  let files: PluginFiles;

  before(() => {
    // realpath: on macOS the temp dir itself sits behind a symlink.
    base = mkdtempSync(path.join(os.tmpdir(), "islet-files-"));
    workdir = path.join(base, "work");
    pluginDir = path.join(base, "plugins", "notes");
    outside = path.join(base, "outside");
    for (const dir of [workdir, pluginDir, outside, path.join(base, "ro"), path.join(base, "rw")]) {
      mkdirSync(dir, { recursive: true });
    }
    writeFileSync(path.join(workdir, "a.txt"), "alpha");
    writeFileSync(path.join(pluginDir, "state.json"), "{}");
    writeFileSync(path.join(outside, "secret.txt"), "secret");
    writeFileSync(path.join(base, "ro", "data.txt"), "read me");
    symlinkSync(path.join(outside, "secret.txt"), path.join(workdir, "link-to-secret"));
    symlinkSync(outside, path.join(workdir, "link-to-outside"));
    symlinkSync(path.join(outside, "new.txt"), path.join(workdir, "dangling"));
    symlinkSync(path.join(workdir, "a.txt"), path.join(workdir, "inner-link"));
    files = new PluginFiles({
      plugin: "notes",
      workdir,
      pluginDir,
      grants: [
        { path: path.join(base, "ro"), reason: "reference data" },
        { path: path.join(base, "rw"), reason: "reports", write: true },
      ],
      limits: { maxFileBytes: 1024 },
    });
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  test("reads and writes in the workspace (relative paths) and the plugin's folder", async () => {
    assert.equal(await files.readFile("a.txt"), "alpha");
    assert.equal(await files.readFile(path.join(pluginDir, "state.json")), "{}");
    await files.writeFile("sub/dir/new.txt", "one");
    await files.appendFile("sub/dir/new.txt", "+two");
    assert.equal(readFileSync(path.join(workdir, "sub/dir/new.txt"), "utf8"), "one+two");
    await files.writeFile(path.join(pluginDir, "state.json"), '{"n":1}');
    assert.equal(await files.readFile("inner-link"), "alpha", "links that stay inside are fine");
  });

  test("readdir, stat and exists", async () => {
    assert.deepEqual(await files.readdir("sub"), ["dir"]);
    const info = await files.stat("a.txt");
    assert.deepEqual(
      { ...info, mtime: typeof info.mtime },
      { isFile: true, isDirectory: false, size: 5, mtime: "string" },
    );
    assert.equal(await files.exists("a.txt"), true);
    assert.equal(await files.exists("missing.txt"), false);
    await assert.rejects(
      files.readFile("missing.txt"),
      /^Error: no such file or directory: missing\.txt$/,
    );
  });

  test("`..` cannot leave the allowed roots", async () => {
    await assert.rejects(
      files.readFile("../outside/secret.txt"),
      /plugin notes cannot read \.\.\/outside\/secret\.txt: it is outside the workspace and the plugin's folder \(grant it in plugin\.yaml permissions\.paths with a reason\)/,
    );
    await assert.rejects(
      files.writeFile("../outside/x.txt", "x"),
      /cannot write .*outside the workspace/,
    );
    await assert.rejects(files.exists("/etc"), /cannot read \/etc/);
  });

  test("symlinks cannot leave the allowed roots, for reads or writes", async () => {
    await assert.rejects(
      files.readFile("link-to-secret"),
      /cannot read link-to-secret: it is outside/,
    );
    await assert.rejects(files.readFile("link-to-outside/secret.txt"), /outside/);
    await assert.rejects(files.writeFile("link-to-outside/new.txt", "x"), /cannot write .*outside/);
    await assert.rejects(files.writeFile("link-to-secret", "x"), /cannot write .*outside/);
    await assert.rejects(files.writeFile("dangling", "x"), /symbolic link to a missing target/);
    assert.equal(readFileSync(path.join(outside, "secret.txt"), "utf8"), "secret");
  });

  test("granted paths: read-only unless write is granted", async () => {
    assert.equal(await files.readFile(path.join(base, "ro", "data.txt")), "read me");
    await assert.rejects(
      files.writeFile(path.join(base, "ro", "data.txt"), "x"),
      /plugin notes cannot write .*data\.txt: permissions\.paths .*ro is granted read-only \(add write: true to it in plugin\.yaml\)/,
    );
    await files.writeFile(path.join(base, "rw", "report.md"), "# ok");
    assert.equal(readFileSync(path.join(base, "rw", "report.md"), "utf8"), "# ok");
  });

  test("size caps on reads and writes; directories are not files", async () => {
    writeFileSync(path.join(workdir, "big.txt"), "x".repeat(2048));
    await assert.rejects(
      files.readFile("big.txt"),
      /big\.txt is larger than the 0 MB the file API reads/,
    );
    await assert.rejects(files.writeFile("big2.txt", "x".repeat(2048)), /larger than/);
    await assert.rejects(files.readFile("sub"), /sub is not a file/);
    await assert.rejects(files.writeFile("sub", "x"), /sub: is a directory/);
  });
});
