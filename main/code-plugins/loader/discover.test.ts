import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { symlinkSync } from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import { discoverPlugins, isSelected, matchesPattern, type DiscoverOptions } from "./discover.ts";
import type { PluginDir } from "./features.ts";
import { loadPlugins, pluginConfigFor } from "./index.ts";
import { pluginFiles, tempDir, type TempDir } from "./testing.ts";
import { findPluginFolders } from "./walk.ts";
import { formatProblem, problemText } from "../../host/problem.ts";

let t: TempDir;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.remove());

const globalDir = (): PluginDir => ({
  dir: t.path("g", "plugins"),
  home: t.path("g"),
  source: "global",
});
const projectDir = (): PluginDir => ({
  dir: t.path("w", ".islet", "plugins"),
  home: t.path("w", ".islet"),
  source: "project",
});
const discover = (opts: Partial<DiscoverOptions> = {}) =>
  discoverPlugins({ dirs: [globalDir()], hostSdk: "0.1.0", ...opts });

describe("discoverPlugins", () => {
  it("walks nested folders, stops at plugin.yaml, sorts by name", async () => {
    t.write({
      ...pluginFiles("g/plugins/injectors/todo-reminder"),
      ...pluginFiles("g/plugins/diagnostics/deep/er/turn-tracker"),
      ...pluginFiles("g/plugins/alpha"),
      // Below a plugin: its own business, never a second plugin.
      ...pluginFiles("g/plugins/alpha/examples/nested"),
      "g/plugins/alpha/lib/util.ts": "export const x = 1;\n",
    });
    const { plugins, errors } = await discover();
    assert.deepEqual(errors, []);
    assert.deepEqual(
      plugins.map((p) => [p.name, p.dir, p.entry, p.source, p.status]),
      [
        [
          "alpha",
          t.path("g/plugins/alpha"),
          t.path("g/plugins/alpha/index.ts"),
          "global",
          "enabled",
        ],
        [
          "todo-reminder",
          t.path("g/plugins/injectors/todo-reminder"),
          t.path("g/plugins/injectors/todo-reminder/index.ts"),
          "global",
          "enabled",
        ],
        [
          "turn-tracker",
          t.path("g/plugins/diagnostics/deep/er/turn-tracker"),
          t.path("g/plugins/diagnostics/deep/er/turn-tracker/index.ts"),
          "global",
          "enabled",
        ],
      ],
    );
    assert.equal(plugins[0].manifestFile, t.path("g/plugins/alpha/plugin.yaml"));
    assert.equal(plugins[0].home, t.path("g"));
  });

  it("skips hidden folders, node_modules and vendor", async () => {
    t.write({
      ...pluginFiles("g/plugins/.git/hooks/x"),
      ...pluginFiles("g/plugins/.hidden"),
      ...pluginFiles("g/plugins/node_modules/some-pkg"),
      ...pluginFiles("g/plugins/pack/vendor/lib"),
      ...pluginFiles("g/plugins/pack/real"),
    });
    const { plugins } = await discover();
    assert.deepEqual(
      plugins.map((p) => p.name),
      ["real"],
    );
  });

  it("follows symlinked plugin folders", async () => {
    t.write(pluginFiles("elsewhere/linked"));
    t.write({ "g/plugins/.keep": "" });
    symlinkSync(t.path("elsewhere/linked"), t.path("g/plugins/linked"));
    const { plugins } = await discover();
    assert.deepEqual(
      plugins.map((p) => p.name),
      ["linked"],
    );
  });

  it("name: overrides the folder name", async () => {
    t.write(pluginFiles("g/plugins/folder-name", "name: custom\n"));
    const { plugins } = await discover();
    assert.deepEqual(
      plugins.map((p) => p.name),
      ["custom"],
    );
  });

  it("duplicates are an error naming both paths, across depths; a global plugin wins over a project one", async () => {
    t.write({
      ...pluginFiles("g/plugins/a/same"),
      ...pluginFiles("g/plugins/b/deeper/same"),
      ...pluginFiles("g/plugins/named", "name: twin\n"),
      ...pluginFiles("w/.islet/plugins/twin"),
      ...pluginFiles("w/.islet/plugins/unique"),
    });
    const { plugins, errors } = await discover({ dirs: [globalDir(), projectDir()] });
    assert.deepEqual(
      plugins.map((p) => [p.name, p.source]),
      [
        ["twin", "global"],
        ["unique", "project"],
      ],
    );
    assert.deepEqual(errors.map(problemText), [
      `duplicate plugin name "same": ${t.path("g/plugins/a/same")} and ${t.path("g/plugins/b/deeper/same")} (rename one with name: in its plugin.yaml, or set disabled: true)`,
      `plugin "twin" not loaded: the global plugin ${t.path("g/plugins/named")} has this name, and a workspace plugin cannot replace a global one (rename it with name: in its plugin.yaml)`,
    ]);
    assert.equal(errors[1].file, t.path("w/.islet/plugins/twin/plugin.yaml"));
  });

  it("a disabled duplicate is no conflict", async () => {
    t.write({
      ...pluginFiles("g/plugins/a/same", "disabled: true\n"),
      ...pluginFiles("g/plugins/b/same"),
    });
    const { plugins, errors } = await discover();
    assert.deepEqual(errors, []);
    assert.deepEqual(
      plugins.map((p) => [p.name, p.status]),
      [
        ["same", "disabled"],
        ["same", "enabled"],
      ],
    );
  });

  it("include/exclude with wildcards; exclude after include", async () => {
    for (const n of ["diagnostic-a", "diagnostic-b", "notepad", "gotify"])
      t.write(pluginFiles(`g/plugins/${n}`));
    const { plugins } = await discover({
      include: ["diagnostic-*", "notepad"],
      exclude: ["*-b"],
    });
    assert.deepEqual(
      plugins.map((p) => [p.name, p.status]),
      [
        ["diagnostic-a", "enabled"],
        ["diagnostic-b", "excluded"],
        ["gotify", "excluded"],
        ["notepad", "enabled"],
      ],
    );
  });

  it("disabled plugins are listed, not loaded", async () => {
    t.write(pluginFiles("g/plugins/off", "disabled: true\n"));
    const { plugins, errors } = await discover();
    assert.deepEqual(errors, []);
    assert.equal(plugins[0].status, "disabled");
    assert.equal(plugins[0].manifest.disabled, true);
  });

  it("entry: main:, else index.ts/js/mjs/mts in that order, else an error", async () => {
    t.write({
      "g/plugins/m/plugin.yaml": "main: src/entry.ts\n",
      "g/plugins/m/src/entry.ts": "export {};\n",
      "g/plugins/m/index.ts": "export {};\n",
      "g/plugins/js/plugin.yaml": "",
      "g/plugins/js/index.js": "export {};\n",
      "g/plugins/js/index.mjs": "export {};\n",
      "g/plugins/mts/plugin.yaml": "",
      "g/plugins/mts/index.mts": "export {};\n",
      "g/plugins/none/plugin.yaml": "",
      "g/plugins/none/main.ts": "export {};\n",
      "g/plugins/badmain/plugin.yaml": "main: lib/missing.ts\n",
    });
    const { plugins, errors } = await discover();
    assert.deepEqual(
      plugins.map((p) => [p.name, p.entry]),
      [
        ["js", t.path("g/plugins/js/index.js")],
        ["m", t.path("g/plugins/m/src/entry.ts")],
        ["mts", t.path("g/plugins/mts/index.mts")],
      ],
    );
    assert.deepEqual(errors.map(formatProblem), [
      `${t.path("g/plugins/badmain/plugin.yaml")}: main: "lib/missing.ts" does not exist in ${t.path("g/plugins/badmain")}`,
      `${t.path("g/plugins/none")}: no entry module: add index.ts (or index.js, index.mjs, index.mts), or set main: in plugin.yaml`,
    ]);
  });

  it("manifest errors are load errors; skipped plugins only warn", async () => {
    t.write({
      ...pluginFiles("g/plugins/broken", 'once: "yes"\n'),
      ...pluginFiles("g/plugins/broken-off", 'disabled: true\ncondition: "nope"\n'),
      ...pluginFiles("g/plugins/broken-excluded", 'once: "yes"\n'),
    });
    const { plugins, errors, warnings } = await discover({ exclude: ["broken-excluded"] });
    assert.deepEqual(plugins, []);
    assert.deepEqual(
      errors.map((e) => ({ file: e.file, message: formatProblem(e) })),
      [
        {
          file: t.path("g/plugins/broken/plugin.yaml"),
          message: `${t.path("g/plugins/broken/plugin.yaml")}: once: expected true or false, got "yes"`,
        },
      ],
    );
    assert.equal(warnings.length, 2);
    assert.ok(warnings.map(formatProblem).every((w) => w.endsWith("(plugin skipped)")));
  });

  it("an incompatible sdk: is an error and the plugin is not enabled", async () => {
    t.write({
      ...pluginFiles("g/plugins/old", 'sdk: "0.1.0"\n'),
      ...pluginFiles("g/plugins/new", 'sdk: "0.2.0"\n'),
      ...pluginFiles("g/plugins/nosdk"),
    });
    const { plugins, errors } = await discover({ hostSdk: "0.1.4" });
    assert.deepEqual(
      plugins.map((p) => [p.name, p.status, p.sdk.status]),
      [
        ["new", "incompatible", "incompatible"],
        ["nosdk", "enabled", "unchecked"],
        ["old", "enabled", "compatible"],
      ],
    );
    assert.equal(errors.length, 1);
    assert.match(
      problemText(errors[0]),
      /^plugin "new": plugin requires SDK ~0\.2\.0, host has 0\.1\.4/,
    );
  });

  it("--without-plugins reads nothing; a missing plugins dir is no error", async () => {
    t.write({ ...pluginFiles("g/plugins/broken", 'once: "yes"\n') });
    assert.deepEqual(await discover({ withoutPlugins: true }), {
      plugins: [],
      errors: [],
      warnings: [],
    });
    const none = await discoverPlugins({ dirs: [projectDir()] });
    assert.deepEqual(none, { plugins: [], errors: [], warnings: [] });
  });

  it("manifest warnings travel with the plugin", async () => {
    t.write(pluginFiles("g/plugins/w", "opt-in: true\n"));
    const { plugins } = await discover();
    assert.equal(plugins[0].warnings.length, 1);
    assert.match(formatProblem(plugins[0].warnings[0]), /did you mean opt_in\?/);
  });

  it("the walk hands each code plugin's plugin.yaml text to discovery, runners' not", async () => {
    t.write({
      ...pluginFiles("g/plugins/code", 'description: "code"\n'),
      ...pluginFiles("g/plugins/tool", 'runner: "x"\ndescription: "runner"\n'),
    });
    const walked = await findPluginFolders(t.path("g/plugins"));
    assert.deepEqual([...walked.manifests], [[t.path("g/plugins/code"), 'description: "code"\n']]);
    assert.deepEqual(walked.runnerFolders, [t.path("g/plugins/tool")]);
  });

  it("a plugin.yaml that is a FIFO is left to the manifest reader, not read by the walk", async (t2) => {
    if (process.platform === "win32") return t2.skip("no FIFOs");
    t.write({ "g/plugins/fifo/index.ts": "export const beforeChat = () => undefined;\n" });
    execFileSync("mkfifo", [t.path("g/plugins/fifo/plugin.yaml")]);
    // A blocking read would wait for a writer forever, with the event loop stopped.
    const walked = await findPluginFolders(t.path("g/plugins"));
    assert.deepEqual(walked.folders, [t.path("g/plugins/fifo")]);
    assert.equal(walked.manifests.size, 0);
  });

  it("an edited plugin.yaml is what the next discovery validates (one read, never stale)", async () => {
    t.write(pluginFiles("g/plugins/p", 'description: "first"\n'));
    assert.equal((await discover()).plugins[0].manifest.description, "first");
    t.write({ "g/plugins/p/plugin.yaml": "name: renamed\ndisabled: yes-please\n" });
    const { plugins, errors } = await discover();
    assert.deepEqual(plugins, []);
    assert.equal(errors.length, 1);
    assert.match(formatProblem(errors[0]), /disabled/);
    t.write({ "g/plugins/p/plugin.yaml": 'name: renamed\ndescription: "second"\n' });
    const again = await discover();
    assert.deepEqual(
      again.plugins.map((p) => [p.name, p.manifest.description]),
      [["renamed", "second"]],
    );
  });
});

describe("patterns", () => {
  it("* matches any run; the rest is literal", () => {
    assert.ok(matchesPattern("diagnostic-x", "diagnostic-*"));
    assert.ok(matchesPattern("a.b", "a.b"));
    assert.ok(!matchesPattern("axb", "a.b"));
    assert.ok(matchesPattern("anything", "*"));
    assert.ok(!matchesPattern("notepad2", "notepad"));
    assert.ok(isSelected("x", [], []));
    assert.ok(!isSelected("x", ["y"], []));
    assert.ok(!isSelected("x", ["*"], ["x"]));
  });
});

describe("loadPlugins", () => {
  it("features from both homes drive discovery and config layering", async () => {
    t.write({
      ...pluginFiles("g/plugins/breaker", "config: { max_failures: 3, endpoint: a }\n"),
      ...pluginFiles("g/plugins/skipme"),
      ...pluginFiles("w/.islet/extra/local-one"),
      "g/config/features/plugins.yaml":
        "plugins:\n  exclude: [skipme]\n  config:\n    global: { verbose: true, endpoint: b }\n",
      "w/.islet/config/features/plugins.yaml":
        "plugins:\n  dir: extra\n  config:\n    local:\n      breaker: { max_failures: 5 }\n",
    });
    const homes = resolveHomes({ home: t.path("g"), workdir: t.path("w"), env: {} });
    const load = await loadPlugins(homes);
    assert.deepEqual(load.errors, []);
    assert.deepEqual(
      load.plugins.map((p) => [p.name, p.source, p.status]),
      [
        ["breaker", "global", "enabled"],
        ["local-one", "project", "enabled"],
        ["skipme", "global", "excluded"],
      ],
    );
    assert.deepEqual(pluginConfigFor(load.features, load.plugins[0]), {
      max_failures: 5,
      endpoint: "b",
      verbose: true,
    });
    const off = await loadPlugins(homes, { withoutPlugins: true });
    assert.deepEqual(off.plugins, []);
  });

  it("an untrusted project's include/exclude narrow its own plugins, never the user's global ones", async () => {
    t.write({
      ...pluginFiles("g/plugins/guard"),
      ...pluginFiles("w/.islet/plugins/helper"),
      ...pluginFiles("w/.islet/plugins/noisy"),
      "w/.islet/config/features/plugins.yaml":
        "plugins:\n  include: [helper, noisy]\n  exclude: [guard, noisy]\n",
    });
    const homes = resolveHomes({ home: t.path("g"), workdir: t.path("w"), env: {} });
    const status = async (trustedProject: boolean) =>
      (await loadPlugins(homes, { trustedProject })).plugins.map((p) => [p.name, p.status]);
    assert.deepEqual(await status(false), [
      ["guard", "enabled"],
      ["helper", "enabled"],
      ["noisy", "excluded"],
    ]);
    // Trusted, the folder's features file is the user's own choice, for every plugin.
    assert.deepEqual(await status(true), [
      ["guard", "excluded"],
      ["helper", "enabled"],
      ["noisy", "excluded"],
    ]);
  });
});
