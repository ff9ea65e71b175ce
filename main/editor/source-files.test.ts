import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { PluginSourceFiles } from "./source-files.ts";

let base: string;
let dir: string;
let outside: string;
let files: PluginSourceFiles;

before(() => {
  base = mkdtempSync(path.join(os.tmpdir(), "islet-editor-"));
  dir = path.join(base, "plugins", "notes");
  outside = path.join(base, "outside");
  mkdirSync(path.join(dir, "lib"), { recursive: true });
  mkdirSync(path.join(dir, "node_modules", "dep"), { recursive: true });
  mkdirSync(outside);
  writeFileSync(path.join(dir, "plugin.yaml"), "description: notes\n");
  writeFileSync(path.join(dir, "index.ts"), "export {};\n");
  writeFileSync(path.join(dir, "lib", "util.ts"), "export const x = 1;\n");
  writeFileSync(path.join(dir, "node_modules", "dep", "index.js"), "");
  writeFileSync(path.join(outside, "secret.txt"), "secret");
  symlinkSync(path.join(outside, "secret.txt"), path.join(dir, "link.txt"));
  symlinkSync(outside, path.join(dir, "out"));
  files = new PluginSourceFiles((name) => (name === "notes" ? dir : undefined));
});
after(() => rmSync(base, { recursive: true, force: true }));

test("lists, reads and writes a plugin's own files", async () => {
  assert.deepEqual(
    (await files.list("notes")).map((e) => e.path),
    ["index.ts", "lib/util.ts", "plugin.yaml"],
  );
  assert.equal(await files.read("notes", "lib/util.ts"), "export const x = 1;\n");
  await files.write("notes", "lib/new/helper.ts", "export {};\n");
  assert.equal(readFileSync(path.join(dir, "lib/new/helper.ts"), "utf8"), "export {};\n");
});

test("a path that escapes the plugin folder is refused with one line, and nothing is written", async () => {
  const escapes: [string, RegExp][] = [
    ["../../outside/secret.txt", /"\.\." is not allowed/],
    ["lib/../../x.txt", /"\.\." is not allowed/],
    ["..\\..\\x.txt", /"\.\." is not allowed/],
    ["/etc/passwd", /relative to the plugin folder/],
    ["C:/Windows/x", /relative to the plugin folder/],
    ["a\0b", /invalid file name/],
    ["out/secret.txt", /leads outside the plugin folder/],
    ["link.txt", /leads outside the plugin folder|symbolic link/],
  ];
  for (const [p, why] of escapes) {
    await assert.rejects(files.read("notes", p), why, `read ${p}`);
    await assert.rejects(files.write("notes", p, "pwned"), why, `write ${p}`);
  }
  assert.equal(readFileSync(path.join(outside, "secret.txt"), "utf8"), "secret");
  await assert.rejects(files.read("other", "index.ts"), /no plugin named "other"/);
});

test("creates, renames and deletes a plugin's own files", async () => {
  await files.create("notes", "lib/fresh.ts", "export const y = 2;\n");
  assert.equal(readFileSync(path.join(dir, "lib/fresh.ts"), "utf8"), "export const y = 2;\n");
  await assert.rejects(files.create("notes", "lib/fresh.ts", ""), /already exists/);
  await files.rename("notes", "lib/fresh.ts", "lib/renamed.ts");
  assert.equal(readFileSync(path.join(dir, "lib/renamed.ts"), "utf8"), "export const y = 2;\n");
  assert.equal(existsSync(path.join(dir, "lib/fresh.ts")), false);
  await assert.rejects(files.rename("notes", "lib/renamed.ts", "index.ts"), /already exists/);
  await files.remove("notes", "lib/renamed.ts");
  assert.equal(existsSync(path.join(dir, "lib/renamed.ts")), false);
  await assert.rejects(files.remove("notes", "lib/renamed.ts"), /no file lib\/renamed\.ts/);
});

test("create, rename and delete refuse paths that escape, and touch nothing outside", async () => {
  const escapes: [string, RegExp][] = [
    ["../../outside/secret.txt", /"\.\." is not allowed/],
    ["/etc/passwd", /relative to the plugin folder/],
    ["a\0b", /invalid file name/],
    ["out/secret.txt", /leads outside the plugin folder/],
    ["out/new.txt", /leads outside the plugin folder/],
  ];
  for (const [p, why] of escapes) {
    await assert.rejects(files.create("notes", p, "pwned"), why, `create ${p}`);
    await assert.rejects(files.remove("notes", p), why, `remove ${p}`);
    await assert.rejects(files.rename("notes", p, "moved.txt"), why, `rename from ${p}`);
    await assert.rejects(files.rename("notes", "index.ts", p), why, `rename to ${p}`);
  }
  // The link itself may go (it is the plugin's own entry), but never what it points to.
  await files.remove("notes", "link.txt");
  assert.equal(readFileSync(path.join(outside, "secret.txt"), "utf8"), "secret");
  assert.equal(existsSync(path.join(outside, "new.txt")), false);
  assert.equal(existsSync(path.join(dir, "index.ts")), true);
  await assert.rejects(files.remove("notes", "lib"), /is not a file/);
  await assert.rejects(files.remove("notes", "plugin.yaml"), /plugin\.yaml.*cannot be deleted/);
});
