/**
 * Attack: a sandboxed plugin imports a host file from outside its folder so that esbuild copies
 * the file's content into the bundle, where the plugin can read it and send it anywhere. Every
 * file the bundle reads must be inside the plugin's real folder (its node_modules included).
 */
import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { bundlePlugin, type BundleResult } from "./bundle.ts";
import { tempDir, type TempDir } from "./testing.ts";

const SECRET = "TOP-SECRET-7d1f";

let t: TempDir;
before(() => {
  t = tempDir("islet-bundle-escape-");
  t.write({
    "home/grants.json": `{ "token": "${SECRET}" }\n`,
    "home/secrets.env": `API_KEY=${SECRET}\n`,
    "home/notes.txt": `${SECRET}\n`,
    "home/steal.js": `export const v = "${SECRET}";\n`,
  });
});
after(() => t.remove());

/** A plugin at home/plugins/<name> whose index.ts is `source`. */
async function bundleWith(name: string, source: string): Promise<BundleResult> {
  const dir = `home/plugins/${name}`;
  t.write({ [`${dir}/plugin.yaml`]: 'description: "thief"\n', [`${dir}/index.ts`]: source });
  return bundlePlugin({ entry: t.path(dir, "index.ts"), pluginDir: t.path(dir) });
}

/** The bundle is refused, the secret is nowhere in what came back, the error is one clear line. */
function assertRefused(r: BundleResult, importText: string): void {
  assert.ok(!JSON.stringify(r).includes(SECRET), "the secret leaked into the result");
  if (r.ok) assert.fail("expected the bundle to be refused");
  const line = r.errors.map((e) => e.text).find((x) => x.includes("outside the plugin folder"));
  assert.ok(line, `no guard error in: ${r.message}`);
  assert.ok(line.includes(importText), line);
  assert.ok(!line.includes("\n"), line);
  assert.match(r.message, /index\.ts:\d+:\d+:/);
}

describe("bundler keeps a plugin inside its folder", () => {
  it("refuses a JSON file above the plugin", async () => {
    const r = await bundleWith(
      "json",
      'import g from "../../grants.json";\nexport const leak = JSON.stringify(g);\n',
    );
    assertRefused(r, "../../grants.json");
  });

  it("refuses a .txt file above the plugin (text loader)", async () => {
    const r = await bundleWith(
      "txt",
      'import s from "../../notes.txt";\nexport const leak: string = s;\n',
    );
    assertRefused(r, "../../notes.txt");
  });

  it("refuses a .env file imported with a text loader attribute", async () => {
    const r = await bundleWith(
      "env",
      'import s from "../../secrets.env" with { type: "text" };\nexport const leak: string = s;\n',
    );
    assertRefused(r, "../../secrets.env");
  });

  it("refuses an absolute path and a dynamic import", async () => {
    const abs = t.path("home/steal.js");
    assertRefused(
      await bundleWith(
        "abs",
        `import { v } from ${JSON.stringify(abs)};\nexport const leak = v;\n`,
      ),
      abs,
    );
    assertRefused(
      await bundleWith("dyn", 'export const leak = () => import("../../steal.js");\n'),
      "../../steal.js",
    );
  });

  it("refuses glob imports reaching out (esbuild expands them without resolving each file)", async () => {
    const r = await bundleWith(
      "glob",
      "export const leak = (n: string) => import(`../../${n}.json`);\n" +
        'export const leak2 = (n: string) => require("../../" + n + ".txt");\n',
    );
    assert.ok(!JSON.stringify(r).includes(SECRET), "the secret leaked into the result");
    if (r.ok) assert.fail("expected the bundle to be refused");
    assert.match(r.message, /grants\.json is outside the plugin folder/);
  });

  it("refuses a symlink inside the folder that points out", async () => {
    t.write({ "home/plugins/link/plugin.yaml": 'description: "thief"\n' });
    symlinkSync(t.path("home/grants.json"), t.path("home/plugins/link/data.json"));
    const r = await bundleWith("link", 'import g from "./data.json";\nexport const leak = g;\n');
    assertRefused(r, "./data.json");
  });

  it("refuses a node_modules package symlinked from outside the folder", async () => {
    t.write({
      "home/outside-pkg/package.json": '{ "name": "evil", "main": "index.js" }\n',
      "home/outside-pkg/index.js": `module.exports = "${SECRET}";\n`,
      "home/plugins/nm/plugin.yaml": 'description: "thief"\n',
    });
    const nm = t.path("home/plugins/nm/node_modules");
    t.write({ "home/plugins/nm/node_modules/.keep": "" });
    symlinkSync(t.path("home/outside-pkg"), `${nm}/evil`);
    const r = await bundleWith("nm", 'import e from "evil";\nexport const leak = e;\n');
    assertRefused(r, "evil");
  });

  it("still bundles files and node_modules inside the folder, and the SDK stays external", async () => {
    t.write({
      "home/plugins/ok/data.json": '{ "n": 1 }\n',
      "home/plugins/ok/words.txt": "hello\n",
      "home/plugins/ok/node_modules/pad/package.json": '{ "name": "pad", "main": "i.js" }\n',
      "home/plugins/ok/node_modules/pad/i.js": 'exports.pad = (s) => " " + s;\n',
    });
    const r = await bundleWith(
      "ok",
      [
        'import { definePlugin } from "@islet/sdk";',
        'import d from "./data.json";',
        'import w from "./words.txt";',
        'import { pad } from "pad";',
        "export const v = pad(w + d.n);",
        "export default definePlugin;",
        "",
      ].join("\n"),
    );
    if (!r.ok) assert.fail(r.message);
    assert.match(r.code, /from "@islet\/sdk"/);
    assert.ok(r.code.includes("hello"));
  });
});
