import assert from "node:assert/strict";
import path from "node:path";
import { after, describe, it } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import {
  applyPluginFlags,
  featuresFile,
  loadPluginFeatures,
  mergeFeatures,
  mergePluginConfig,
  parseFeaturesLayer,
} from "./features.ts";
import { tempDir } from "./testing.ts";
import { formatProblem } from "../../host/problem.ts";

const FILE = "/g/config/features/plugins.yaml";

describe("parseFeaturesLayer", () => {
  it("reads every field", () => {
    const { layer, errors, warnings } = parseFeaturesLayer(
      [
        "plugins:",
        "  dir: my-plugins",
        "  unsafe: true",
        "  include: [notepad, 'diagnostic-*']",
        "  exclude: [loop-detection]",
        "  runtime: quickjs",
        "  config:",
        "    global: { verbose: true }",
        "    local:",
        "      failure-circuit-breaker: { max_failures: 5 }",
      ].join("\n"),
      FILE,
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, []);
    assert.deepEqual(layer, {
      dir: "my-plugins",
      unsafe: true,
      include: ["notepad", "diagnostic-*"],
      exclude: ["loop-detection"],
      runtime: "quickjs",
      config: {
        global: { verbose: true },
        local: { "failure-circuit-breaker": { max_failures: 5 } },
      },
    });
  });

  it("one-line errors per bad field; the good fields still apply", () => {
    const { layer, errors } = parseFeaturesLayer(
      "plugins:\n  unsafe: yes\n  runtime: v8\n  include: notepad\n  exclude: [a]\n",
      FILE,
    );
    assert.deepEqual(errors.map(formatProblem), [
      `${FILE}: plugins.unsafe: expected true or false, got "yes"`,
      `${FILE}: plugins.include: expected a list of plugin names or patterns, e.g. [notepad, "diagnostic-*"], got "notepad"`,
      `${FILE}: plugins.runtime: expected isolated-vm or quickjs, got "v8"`,
    ]);
    assert.deepEqual(layer, { exclude: ["a"] });
    const local = parseFeaturesLayer("plugins:\n  config:\n    local: { foo: 3 }\n", FILE);
    assert.deepEqual(local.errors.map(formatProblem), [
      `${FILE}: plugins.config.local.foo: expected a map of config values, got 3`,
    ]);
  });

  it("warns about unknown and misplaced fields", () => {
    const { warnings } = parseFeaturesLayer(
      "unsafe: true\nplugins:\n  unsafe_mode: true\n  config: { globals: {} }\n",
      FILE,
    );
    assert.deepEqual(warnings.map(formatProblem), [
      `${FILE}: field "unsafe" ignored: it belongs under plugins:`,
      `${FILE}: plugins: unknown field "unsafe_mode" (ignored; did you mean unsafe?)`,
      `${FILE}: plugins.config: unknown field "globals" (ignored; did you mean global?)`,
    ]);
  });

  it("YAML errors and wrong shapes", () => {
    assert.match(
      formatProblem(parseFeaturesLayer("plugins: [", FILE).errors[0]),
      /^\/g\/config\/features\/plugins\.yaml:\d+:\d+: invalid YAML/,
    );
    assert.equal(
      formatProblem(parseFeaturesLayer("plugins: 3", FILE).errors[0]),
      `${FILE}: plugins: expected a map of settings, got 3`,
    );
  });
});

describe("merging", () => {
  it("project over global per field; config maps merge key by key", () => {
    const f = mergeFeatures([
      {
        home: "/g",
        source: "global",
        layer: {
          unsafe: true,
          include: ["a*"],
          exclude: ["x"],
          runtime: "quickjs",
          config: { global: { verbose: true, level: 1 }, local: { p: { a: 1, b: 1 } } },
        },
      },
      {
        home: "/w/.islet",
        source: "project",
        layer: {
          exclude: ["y"],
          config: { global: { level: 2 }, local: { p: { b: 2 }, q: { c: 3 } } },
        },
      },
    ]);
    assert.equal(f.unsafe, true);
    assert.deepEqual(f.include, ["a*"]);
    assert.deepEqual(f.exclude, ["y"]);
    assert.equal(f.runtime, "quickjs");
    assert.deepEqual(f.config, {
      global: { verbose: true, level: 2 },
      local: { p: { a: 1, b: 2 }, q: { c: 3 } },
    });
  });

  it("each home's dir resolves against that home; default plugins/", () => {
    const f = mergeFeatures([
      { home: "/g", source: "global", layer: {} },
      { home: "/w/.islet", source: "project", layer: { dir: "../my-plugins" } },
    ]);
    assert.deepEqual(f.dirs, [
      { dir: "/g/plugins", home: "/g", source: "global" },
      { dir: "/w/my-plugins", home: "/w/.islet", source: "project" },
    ]);
    const same = mergeFeatures([
      { home: "/g", source: "global", layer: { dir: "/shared" } },
      { home: "/w/.islet", source: "project", layer: { dir: "/shared" } },
    ]);
    assert.equal(same.dirs.length, 1, "one folder is scanned once");
  });

  it("flags override the files", () => {
    const base = mergeFeatures([{ home: "/g", source: "global", layer: { runtime: "quickjs" } }]);
    const { features, errors } = applyPluginFlags(base, {
      unsafePlugins: true,
      withoutPlugins: true,
      pluginRuntime: "isolated-vm",
    });
    assert.deepEqual(errors, []);
    assert.deepEqual(
      [features.unsafe, features.withoutPlugins, features.runtime],
      [true, true, "isolated-vm"],
    );
    assert.equal(features.runtimeSource, "--plugin-runtime");
    assert.equal(base.runtime, "quickjs", "the input is not mutated");
    assert.equal(base.runtimeSource, `plugins.runtime in ${featuresFile("/g")}`);
    const bad = applyPluginFlags(base, { pluginRuntime: "v8" });
    assert.equal(
      formatProblem(bad.errors[0]),
      '--plugin-runtime: expected isolated-vm or quickjs, got "v8"',
    );
    assert.equal(bad.features.runtime, "quickjs");
  });

  it("mergePluginConfig: plugin.yaml, then global, then local win per key (shallow)", () => {
    assert.deepEqual(
      mergePluginConfig(
        { max_failures: 3, endpoint: "a", nested: { x: 1, y: 1 } },
        { verbose: true, endpoint: "b" },
        { max_failures: 5, nested: { y: 2 } },
      ),
      { max_failures: 5, endpoint: "b", verbose: true, nested: { y: 2 } },
    );
    assert.deepEqual(mergePluginConfig({ a: 1 }, undefined, undefined), { a: 1 });
  });
});

describe("loadPluginFeatures", () => {
  const t = tempDir();
  after(() => t.remove());

  it("reads both homes from disk and applies flags", async () => {
    t.write({
      "home/config/features/plugins.yaml":
        "plugins:\n  unsafe: false\n  include: [a]\n  config: { global: { g: 1 } }\n",
      "work/.islet/config/features/plugins.yaml": "plugins:\n  include: [b]\n  dir: extra\n",
    });
    const homes = resolveHomes({ home: t.path("home"), workdir: t.path("work"), env: {} });
    const { features, errors, warnings } = await loadPluginFeatures(homes, { unsafePlugins: true });
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, []);
    assert.equal(features.unsafe, true);
    assert.deepEqual(features.include, ["b"]);
    assert.deepEqual(features.config.global, { g: 1 });
    assert.deepEqual(
      features.dirs.map((d) => [d.dir, d.source]),
      [
        [t.path("home", "plugins"), "global"],
        [path.join(t.path("work"), ".islet", "extra"), "project"],
      ],
    );
  });

  it("missing files are fine", async () => {
    const homes = resolveHomes({ home: t.path("nohome"), workdir: t.path("nowork"), env: {} });
    const { features, errors } = await loadPluginFeatures(homes);
    assert.deepEqual(errors, []);
    assert.equal(features.runtime, "auto");
    assert.equal(features.dirs.length, 2);
  });
});
