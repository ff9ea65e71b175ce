import assert from "node:assert/strict";
import { readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";
import { after, before, describe, it } from "node:test";
import { bundlePlugin, warmUpBundler, type BundleOptions, type BundleResult } from "./bundle.ts";
import { tempDir, type TempDir } from "./testing.ts";

let t: TempDir;
before(() => {
  t = tempDir("islet-bundle-");
});
after(() => t.remove());

/** A TypeScript plugin using a pure-JS (CommonJS) package from its own node_modules. */
function writeTsPlugin(dir: string): void {
  t.write({
    [`${dir}/plugin.yaml`]: 'description: "shouts"\n',
    [`${dir}/package.json`]: '{ "name": "shouter", "dependencies": { "tiny-shout": "1.0.0" } }\n',
    [`${dir}/index.ts`]: [
      'import { shout } from "tiny-shout";',
      'import { suffix } from "./lib/suffix.ts";',
      "interface Box { text: string }",
      "export function greet(name: string): string {",
      "  const box: Box = { text: shout(name) };",
      "  return box.text + suffix;",
      "}",
      "",
    ].join("\n"),
    [`${dir}/lib/suffix.ts`]: 'export const suffix: string = "!";\n',
    [`${dir}/node_modules/tiny-shout/package.json`]:
      '{ "name": "tiny-shout", "version": "1.0.0", "main": "index.js" }\n',
    [`${dir}/node_modules/tiny-shout/index.js`]: "exports.shout = (s) => s.toUpperCase();\n",
  });
}

/**
 * Dates every file below `dir` a minute back. A bundle whose inputs were modified as the build
 * started is not cached (the race guard), and tests write files just before bundling.
 */
function settle(dir: string): void {
  const past = new Date(Date.now() - 60_000);
  for (const e of readdirSync(t.path(dir), { recursive: true, withFileTypes: true })) {
    if (e.isFile()) utimesSync(path.join(e.parentPath, e.name), past, past);
  }
}

/** Counts esbuild runs: the cache must spare them. */
function countingBuild() {
  const calls = { n: 0 };
  const build: BundleOptions["build"] = (options) => {
    calls.n++;
    return esbuild.build(options);
  };
  return { calls, build };
}

async function importBundle(code: string): Promise<Record<string, unknown>> {
  return (await import(
    `data:text/javascript;base64,${Buffer.from(code).toString("base64")}`
  )) as Record<string, unknown>;
}

function expectOk(r: BundleResult): Extract<BundleResult, { ok: true }> {
  if (!r.ok) assert.fail(r.message);
  return r;
}

function expectErrors(r: BundleResult): Extract<BundleResult, { ok: false }> {
  if (r.ok) assert.fail("expected the bundle to fail");
  return r;
}

describe("bundlePlugin", () => {
  it("warmUpBundler starts esbuild without bundling anything", async () => {
    await warmUpBundler();
  });

  it("bundles TypeScript and node_modules into one ES module that runs", async () => {
    writeTsPlugin("ts");
    const r = expectOk(
      await bundlePlugin({ entry: t.path("ts/index.ts"), pluginDir: t.path("ts") }),
    );
    assert.equal(r.cached, false);
    const mod = await importBundle(r.code);
    assert.equal((mod.greet as (s: string) => string)("hi"), "HI!");
    assert.deepEqual(
      [...r.inputs].sort(),
      [
        t.path("ts/index.ts"),
        t.path("ts/lib/suffix.ts"),
        t.path("ts/node_modules/tiny-shout/index.js"),
        t.path("ts/node_modules/tiny-shout/package.json"),
        t.path("ts/package.json"),
      ].sort(),
    );
  });

  it("keeps @islet/sdk and @islet/sdk/exec external, with an inline source map of the plugin's files", async () => {
    t.write({
      "sdk/plugin.yaml": "",
      "sdk/index.ts": [
        'import { version } from "@islet/sdk";',
        'import { exec } from "@islet/sdk/exec";',
        "export const v = (): string => version + typeof exec;",
        "",
      ].join("\n"),
    });
    const r = expectOk(
      await bundlePlugin({ entry: t.path("sdk/index.ts"), pluginDir: t.path("sdk") }),
    );
    assert.match(r.code, /from "@islet\/sdk"/);
    assert.match(r.code, /from "@islet\/sdk\/exec"/);
    const map = /sourceMappingURL=data:application\/json;base64,([A-Za-z0-9+/=]+)/.exec(r.code);
    assert.ok(map, "inline source map");
    const parsed = JSON.parse(Buffer.from(map[1], "base64").toString()) as { sources: string[] };
    assert.deepEqual(parsed.sources, ["index.ts"]);
  });

  it("Node built-ins fail with advice at the import's line", async () => {
    // Each binding is used: TypeScript drops unused imports before they are resolved.
    const cases: [string, string, string][] = [
      ['import { execSync } from "child_process";', "execSync", "child_process"],
      ['import fs from "node:fs";', "fs", "fs"],
      ['import { readFile } from "fs/promises";', "readFile", "fs/promises"],
    ];
    for (const [i, [line, binding, name]] of cases.entries()) {
      t.write({ [`nb${i}/index.ts`]: `// plugin\n${line}\nexport const x = typeof ${binding};\n` });
      const r = expectErrors(
        await bundlePlugin({ entry: t.path(`nb${i}/index.ts`), pluginDir: t.path(`nb${i}`) }),
      );
      assert.equal(r.errors.length, 1);
      const e = r.errors[0];
      assert.equal(e.file, t.path(`nb${i}/index.ts`));
      assert.equal(e.line, 2);
      assert.equal(e.column, line.indexOf('"') + 1);
      assert.equal(
        e.text,
        `plugins cannot import Node modules (${name}): use fs from @islet/sdk, or exec from @islet/sdk/exec in unsafe mode`,
      );
      assert.equal(r.message, `${e.file}:2:${e.column}: ${e.text}`);
    }
  });

  it("an installed npm package named like a built-in is allowed", async () => {
    t.write({
      "ev/index.ts":
        'import { EventEmitter } from "events";\nexport const e = typeof EventEmitter;\n',
      "ev/node_modules/events/package.json": '{ "name": "events", "main": "events.js" }\n',
      "ev/node_modules/events/events.js": "exports.EventEmitter = class EventEmitter {};\n",
    });
    const r = expectOk(
      await bundlePlugin({ entry: t.path("ev/index.ts"), pluginDir: t.path("ev") }),
    );
    assert.equal((await importBundle(r.code)).e, "function");
  });

  it("syntax errors come back as file:line:column, one line each, with the file among inputs", async () => {
    t.write({
      "bad/index.ts": 'import { f } from "./f.ts";\nexport const ok = f;\n',
      "bad/f.ts": "export const f = 1;\nexport const g = (;\n",
    });
    const r = expectErrors(
      await bundlePlugin({ entry: t.path("bad/index.ts"), pluginDir: t.path("bad") }),
    );
    assert.equal(r.errors[0].file, t.path("bad/f.ts"));
    assert.equal(r.errors[0].line, 2);
    assert.equal(r.errors[0].column, 19);
    assert.match(r.message, new RegExp(`^${t.path("bad/f.ts")}:2:19: Unexpected`));
    assert.ok(r.message.split("\n").length === r.errors.length);
    assert.ok(r.inputs.includes(t.path("bad/f.ts")));
  });

  it("a missing package says how to install it", async () => {
    t.write({ "miss/index.ts": 'import x from "left-pad";\nexport default x;\n' });
    const r = expectErrors(
      await bundlePlugin({ entry: t.path("miss/index.ts"), pluginDir: t.path("miss") }),
    );
    assert.match(
      r.errors[0].text,
      /Could not resolve "left-pad" \(is it a dependency in the plugin's package.json\? run npm install in /,
    );
  });
});

describe("bundle cache", () => {
  it("a warm load with unchanged inputs does not run esbuild", async () => {
    writeTsPlugin("c1");
    settle("c1");
    const cacheDir = t.path("cache1");
    const { calls, build } = countingBuild();
    const opts = { entry: t.path("c1/index.ts"), pluginDir: t.path("c1"), cacheDir, build };
    const cold = expectOk(await bundlePlugin(opts));
    const warm = expectOk(await bundlePlugin(opts));
    assert.equal(calls.n, 1);
    assert.equal(warm.cached, true);
    assert.equal(warm.code, cold.code);
    assert.equal(warm.hash, cold.hash);
    assert.deepEqual([...warm.inputs].sort(), [...cold.inputs].sort());
  });

  it("any input change invalidates: entry, local module, dependency, package.json, new tsconfig", async () => {
    writeTsPlugin("c2");
    settle("c2");
    const cacheDir = t.path("cache2");
    const { calls, build } = countingBuild();
    const opts = { entry: t.path("c2/index.ts"), pluginDir: t.path("c2"), cacheDir, build };
    const first = expectOk(await bundlePlugin(opts));
    const edits: [string, () => void][] = [
      [
        "entry",
        () =>
          t.write({
            "c2/index.ts":
              'import { shout } from "tiny-shout";\nexport const greet = (n: string): string => shout(n) + "?";\n',
          }),
      ],
      [
        "dependency",
        () =>
          t.write({
            "c2/node_modules/tiny-shout/index.js": 'exports.shout = (s) => "<" + s + ">";\n',
          }),
      ],
      [
        "dependency package.json",
        () =>
          t.write({
            "c2/node_modules/tiny-shout/package.json":
              '{ "name": "tiny-shout", "version": "1.0.1", "main": "index.js" }\n',
          }),
      ],
      [
        "plugin package.json",
        () => t.write({ "c2/package.json": '{ "name": "shouter", "version": "2.0.0" }\n' }),
      ],
      [
        "new tsconfig.json",
        () =>
          t.write({
            "c2/tsconfig.json": '{ "compilerOptions": { "useDefineForClassFields": false } }\n',
          }),
      ],
    ];
    let last = first;
    for (const [what, edit] of edits) {
      const before = calls.n;
      edit();
      settle("c2");
      const r = expectOk(await bundlePlugin(opts));
      assert.equal(calls.n, before + 1, `${what}: esbuild should run again`);
      assert.equal(r.cached, false, what);
      assert.notEqual(r.hash, last.hash, what);
      last = r;
      assert.equal(expectOk(await bundlePlugin(opts)).cached, true, `${what}: then cached again`);
    }
    const greet = (await importBundle(last.code)).greet as (s: string) => string;
    assert.equal(greet("x"), "<x>?");
  });

  it("a removed local module rebuilds (and fails with its import)", async () => {
    writeTsPlugin("c3");
    const cacheDir = t.path("cache3");
    const opts = { entry: t.path("c3/index.ts"), pluginDir: t.path("c3"), cacheDir };
    expectOk(await bundlePlugin(opts));
    rmSync(t.path("c3/lib/suffix.ts"));
    const r = expectErrors(await bundlePlugin(opts));
    assert.match(r.message, /Could not resolve "\.\/lib\/suffix\.ts"/);
  });

  it("a corrupt cache file is ignored", async () => {
    writeTsPlugin("c4");
    settle("c4");
    const cacheDir = t.path("cache4");
    const { calls, build } = countingBuild();
    const opts = { entry: t.path("c4/index.ts"), pluginDir: t.path("c4"), cacheDir, build };
    expectOk(await bundlePlugin(opts));
    for (const f of readdirSync(cacheDir)) writeFileSync(t.path("cache4", f), "{ not json");
    const r = expectOk(await bundlePlugin(opts));
    assert.equal(r.cached, false);
    assert.equal(calls.n, 2);
  });

  it("a bundle whose inputs changed as it was built is not cached", async () => {
    writeTsPlugin("c5");
    const cacheDir = t.path("cache5");
    const { calls, build } = countingBuild();
    const opts = { entry: t.path("c5/index.ts"), pluginDir: t.path("c5"), cacheDir, build };
    // Just written: as far as the loader can tell, written while esbuild read it.
    expectOk(await bundlePlugin(opts));
    settle("c5");
    assert.equal(expectOk(await bundlePlugin(opts)).cached, false);
    assert.equal(expectOk(await bundlePlugin(opts)).cached, true);
    assert.equal(calls.n, 2);
  });

  it("the cache holds one code file per entry", async () => {
    writeTsPlugin("c6");
    settle("c6");
    const cacheDir = t.path("cache6");
    const opts = { entry: t.path("c6/index.ts"), pluginDir: t.path("c6"), cacheDir };
    expectOk(await bundlePlugin(opts));
    t.write({ "c6/lib/suffix.ts": 'export const suffix: string = "?";\n' });
    settle("c6");
    expectOk(await bundlePlugin(opts));
    const files = readdirSync(cacheDir).sort();
    assert.equal(files.length, 2, files.join(", "));
    assert.ok(files.some((f) => f.endsWith(".json")) && files.some((f) => f.endsWith(".mjs")));
  });
});
