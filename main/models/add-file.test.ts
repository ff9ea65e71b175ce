// "Add a model file…": a person's path is checked on the engine's side before the file joins the
// models folder — and the attacks on it (a path climbing out with `..`, a link to /etc/shadow, a
// device, a folder, a file that only claims to be GGUF) add nothing.
import assert from "node:assert/strict";
import { mkdir, mkdtemp, readdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { addModelFile } from "./add-file.ts";
import { llamaSpec, writeGguf } from "./testing/gguf-writer.ts";

let root: string;
let home: string;
let outside: string;
const homes = () => ({ global: home });
const folder = () => readdir(path.join(home, "models")).catch(() => [] as string[]);

before(async () => {
  root = await mkdtemp(path.join(tmpdir(), "islet-add-file-"));
  home = path.join(root, "home");
  outside = path.join(root, "downloads");
  await mkdir(outside, { recursive: true });
  await writeGguf(path.join(outside, "My Model.Q4.gguf"), llamaSpec());
});
after(() => rm(root, { recursive: true, force: true }));

test("a GGUF file on disk joins the models folder under its own name and is listed", async () => {
  const model = await addModelFile(homes(), `  ${path.join(outside, "My Model.Q4.gguf")}\n`);
  assert.equal(model.name, "My-Model.Q4");
  assert.equal(model.info?.architecture, "llama");
  assert.deepEqual(await folder(), ["My-Model.Q4.gguf"]);
  await assert.rejects(addModelFile(homes(), path.join(outside, "My Model.Q4.gguf")), {
    message: /a model named "My-Model.Q4" is already in the models folder/,
  });
});

test("a relative path or no path is refused before anything is read", async () => {
  await assert.rejects(addModelFile(homes(), "model.gguf"), { message: /not a full path/ });
  await assert.rejects(addModelFile(homes(), "../../etc/passwd"), { message: /not a full path/ });
  await assert.rejects(addModelFile(homes(), "   "), { message: /not a path/ });
  await assert.rejects(addModelFile(homes(), "/tmp/a\0b"), { message: /not a path/ });
});

test("attacks: `..` out to /etc/passwd, a link to /etc/shadow, a device, a folder, a fake GGUF", async () => {
  const before = await folder();
  const climb = `${outside}/../../../../../../../../etc/passwd`;
  await assert.rejects(addModelFile(homes(), climb), { message: /not a GGUF model file/ });
  // Read as root this is "not GGUF"; as anyone else, "cannot be read": refused either way.
  const shadow = path.join(outside, "shadow.gguf");
  await symlink("/etc/shadow", shadow);
  await assert.rejects(addModelFile(homes(), shadow), {
    message: /not a GGUF model file|cannot be read/,
  });
  await assert.rejects(addModelFile(homes(), "/dev/zero"), { message: /not a regular file/ });
  await assert.rejects(addModelFile(homes(), outside), { message: /not a regular file/ });
  const fake = path.join(outside, "fake.gguf");
  await writeFile(fake, "GGUF then nothing a header needs");
  await assert.rejects(addModelFile(homes(), fake), { name: "ModelFileError" });
  await assert.rejects(addModelFile(homes(), path.join(outside, "gone.gguf")), {
    message: /no such file/,
  });
  assert.deepEqual(await folder(), before, "nothing was added");
});
