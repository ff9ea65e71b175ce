import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { discoverPlugins } from "../../code-plugins/loader/discover.ts";
import { projectWidening } from "../../trust/held-back.ts";
import { Contributions } from "../../contributions/contributions.ts";
import { RunnerPluginSource } from "./source.ts";
import { activated, call, runnerWorld, type RunnerWorld } from "./testing.ts";
import { formatProblem } from "../../host/problem.ts";

const NATIVE = { description: "Echoes.", command: "echo", runner: "native" };

async function userConfigs(w: RunnerWorld, configs: unknown): Promise<string> {
  const file = path.join(w.homes.global, "config", "runner-configs.json");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(configs));
  return file;
}

test("a malformed JSON path in a runner config: one line naming the file and the field", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const file = await userConfigs(w, {
    broken: { command_run: ["{command}", "--tag={plugin.tags[}", "{args}"] },
  });
  await w.plugin("echoer", { ...NATIVE, runner_config: "broken" });
  const { plugins, problems } = await w.source().discover();
  assert.equal(plugins.length, 0);
  const messages = problems.map(formatProblem);
  assert.equal(messages.length, 2, messages.join("\n"));
  assert.match(
    messages[0],
    new RegExp(
      `^${escape(file)}: broken\\.command_run: \\[1\\]: \\{plugin\\.tags\\[\\}: malformed JSON path \\$\\.tags\\[ \\(.*\\)$`,
    ),
  );
  assert.match(messages[1], /manifest\.json: runner_config: "broken" is not a runner config/);
});

test("a JSON path that matches nothing in the manifest: a load error naming both files and the field", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const configs = await userConfigs(w, {
    tagged: { command_run: ["{command}", "--tag={plugin.tag}", "{args}"] },
  });
  const manifest = await w.plugin("echoer", { ...NATIVE, runner_config: "tagged", tga: "x" });
  const { plugins, problems } = await w.source().discover();
  assert.equal(plugins.length, 0);
  assert.deepEqual(problems.map(formatProblem), [
    `${manifest}: runner config "tagged" (${configs}) command_run[1]: {plugin.tag} matches nothing in the manifest`,
  ]);
});

test("a JSON path in a runner config reads the manifest, nested fields included", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await userConfigs(w, {
    tagged: { command_run: ["{command}", "--tag={plugin.extra.tags[1]}", "{args}"] },
  });
  await w.plugin("echoer", { ...NATIVE, runner_config: "tagged", extra: { tags: ["a", "b c"] } });
  const { tool } = await activated(w.source(), "echoer");
  const result = await call(tool, { args: ["x"] }, w.homes.workdir);
  assert.equal(result.output, "--tag=b c x\n[exit code 0]");
});

test("manifest errors name the file and field; unknown fields are warnings", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const file = await w.plugin("bad", { description: "x", command: "echo", runner: "vm" });
  const okFile = await w.plugin("ok", { ...NATIVE, colour: "blue" });
  const warnings: string[] = [];
  const source = new RunnerPluginSource({
    homes: w.homes,
    warn: (p) => warnings.push(formatProblem(p)),
  });
  const { plugins, problems } = await source.discover();
  assert.deepEqual(
    plugins.map((p) => p.name),
    ["ok"],
  );
  assert.deepEqual(problems.map(formatProblem), [
    `${file}: runner: expected "native" or "container"`,
  ]);
  assert.deepEqual(warnings, [`${okFile}: unknown field "colour" (ignored)`]);
});

test("plugin.yaml with runner: is a runner plugin, and code plugin discovery skips it silently", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await w.plugin(
    "yaml-echo",
    "name: yaml-echo\ndescription: Echoes.\nrunner: native\ncommand: [echo, from yaml]\n",
    "plugin.yaml",
  );
  await w.plugin("json-echo", NATIVE);
  const code = await discoverPlugins({
    dirs: [{ dir: path.join(w.homes.global, "plugins"), home: w.homes.global, source: "global" }],
  });
  assert.deepEqual(code.plugins, []);
  assert.deepEqual(code.errors, []);
  assert.deepEqual(code.warnings, []);
  const { plugins, problems } = await w.source().discover();
  assert.deepEqual(problems, []);
  assert.deepEqual(
    plugins.map((p) => [p.name, path.basename(p.manifestFile)]),
    [
      ["json-echo", "manifest.json"],
      ["yaml-echo", "plugin.yaml"],
    ],
  );
  const { tool } = await activated(w.source(), "yaml-echo");
  assert.equal((await call(tool, {}, w.homes.workdir)).output, "from yaml\n[exit code 0]");
});

test("an untrusted project: its runner configs are not read and its runner plugins stay off", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const projectPlugin = path.join(w.homes.project, "plugins", "local", "manifest.json");
  await mkdir(path.dirname(projectPlugin), { recursive: true });
  await writeFile(projectPlugin, JSON.stringify({ ...NATIVE, runner_config: "project-only" }));
  await mkdir(path.join(w.homes.project, "config"), { recursive: true });
  await writeFile(
    path.join(w.homes.project, "config", "runner-configs.json"),
    JSON.stringify({ "project-only": { command_run: ["{command}", "{args}"] } }),
  );

  assert.deepEqual(await projectWidening(w.homes), [
    "CLI-tool runner configs from .islet/config/runner-configs.json",
    "CLI-tool runner plugins local from .islet/plugins/",
  ]);
  const untrusted = await w.source().discover();
  assert.deepEqual(untrusted.plugins, []);
  assert.match(
    formatProblem(untrusted.problems[0]),
    /runner_config: "project-only" is not a runner config/,
  );

  await writeFile(projectPlugin, JSON.stringify(NATIVE));
  const held = (await w.source().discover()).plugins[0];
  assert.equal(held.heldBack, true);
  await assert.rejects(held.activate(new Contributions().registrar()), {
    message: `local: ${w.homes.workdir} is not trusted, so its runner plugins stay off: trust it with \`islet trust add\``,
  });

  await writeFile(projectPlugin, JSON.stringify({ ...NATIVE, runner_config: "project-only" }));
  const trusted = await w.source({ trustedProject: true }).discover();
  assert.deepEqual(trusted.problems, []);
  assert.equal(trusted.plugins[0].heldBack, false);
});

test("the fingerprint changes with what consent covers, not with the description", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await w.plugin("echoer", NATIVE);
  const first = (await w.source().discover()).plugins[0].fingerprint;
  await w.plugin("echoer", { ...NATIVE, description: "Says things." });
  assert.equal((await w.source().discover()).plugins[0].fingerprint, first);
  await w.plugin("echoer", { ...NATIVE, command: "echo -n" });
  assert.notEqual((await w.source().discover()).plugins[0].fingerprint, first);
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

test("a plugin named after a folder whose name is no tool name: a load error naming the field", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const file = await w.plugin("my plugin", NATIVE);
  const { plugins, problems } = await w.source().discover();
  assert.deepEqual(plugins, []);
  assert.deepEqual(problems.map(formatProblem), [
    `${file}: name: missing, and the folder name "my plugin" is not a tool name: set name: (letters, digits, _ or -)`,
  ]);
});

test("the user's runner-configs.json replaces a built-in config of the same name", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await userConfigs(w, { native: { command_run: ["{command}", "--from-user", "{args}"] } });
  await w.plugin("echoer", NATIVE);
  const { tool } = await activated(w.source(), "echoer");
  assert.equal(
    (await call(tool, { args: ["x"] }, w.homes.workdir)).output,
    "--from-user x\n[exit code 0]",
  );
});
