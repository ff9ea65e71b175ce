/**
 * Attacks through manifest values and tool arguments: nothing extra runs. Each manifest attack
 * must fail at load with one line naming the file and the field; each argument attack must reach
 * the command as exactly the argv entries the model sent, after the command.
 */
import assert from "node:assert/strict";
import { access, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { DOTNET_TEST, fakeEngines } from "./fake-engine.ts";
import { activated, call, runnerWorld, type RunnerWorld } from "./testing.ts";
import { formatProblem } from "../../host/problem.ts";

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

async function noMarker(w: RunnerWorld, marker: string): Promise<void> {
  assert.equal(await exists(marker), false, `${marker} was created: something extra ran`);
  assert.equal(await exists(path.join(w.homes.workdir, "pwned")), false);
}

/** Discovers one plugin with `manifest`; returns its load problems (and activates it if it loads). */
async function load(w: RunnerWorld, manifest: Record<string, unknown>, env?: NodeJS.ProcessEnv) {
  const file = await w.plugin("attack", manifest);
  const source = w.source({ env });
  const { plugins, problems } = await source.discover();
  if (plugins.length > 0) await activated(source, plugins[0].name).catch(() => {});
  return { file, problems: problems.map(formatProblem), loaded: plugins.length > 0 };
}

const MANIFEST_ATTACKS: {
  what: string;
  change: (marker: string) => Record<string, unknown>;
  error: RegExp;
}[] = [
  {
    what: "a second command after ; in command",
    change: (m) => ({ command: `echo hi; touch ${m}` }),
    error: /: command: the shell operator ";" is not allowed/,
  },
  {
    what: "&& in command",
    change: (m) => ({ command: `echo hi && touch ${m}` }),
    error: /: command: the shell operator "&&" is not allowed/,
  },
  {
    what: "$(…) in command",
    change: (m) => ({ command: `echo $(touch ${m})` }),
    error: /: command: "\$" is not allowed/,
  },
  {
    what: "backticks in command",
    change: (m) => ({ command: `echo \`touch ${m}\`` }),
    error: /: command: "`" is not allowed/,
  },
  {
    what: "a flag as the program",
    change: () => ({ command: ["--privileged", "sh"] }),
    error: /: command: "--privileged" starts with "-"/,
  },
  {
    what: "--privileged as the image",
    change: () => ({ image: "--privileged" }),
    error: /: image: "--privileged" is not an image reference/,
  },
  {
    what: "-v /:/host smuggled into the image",
    change: () => ({ image: "alpine -v /:/host" }),
    error: /: image: "alpine -v \/:\/host" is not an image reference/,
  },
  {
    what: "a , in the mount's host path (another mount option)",
    change: () => ({ mount: { host_path: "/tmp/a,readonly=false", path: "/app" } }),
    error: /: mount\.host_path: .* holds one of , : "/,
  },
  {
    what: "a : in the mount's host path (a second -v field)",
    change: () => ({ mount: { host_path: "/:/host", path: "/app" } }),
    error: /: mount\.host_path: .* holds one of , : "/,
  },
  {
    what: "a , in the container path",
    change: () => ({ mount: { host_path: "{working_dir}", path: "/app,source=/" } }),
    error: /: mount\.path: .* holds one of , : "/,
  },
  {
    what: "a relative host path",
    change: () => ({ mount: { host_path: "../..", path: "/app" } }),
    error: /: mount\.host_path: must be an absolute path/,
  },
];

for (const attack of MANIFEST_ATTACKS) {
  test(`manifest attack refused at load: ${attack.what}`, async (t) => {
    const w = await runnerWorld();
    t.after(() => w.cleanup());
    const fake = await fakeEngines(w, [{ name: "docker" }]);
    await writeFile(fake.imageFile, "");
    const marker = path.join(w.root, "pwned");
    const manifest = { ...DOTNET_TEST, runner_config: "docker-config", ...attack.change(marker) };
    const { file, problems, loaded } = await load(w, manifest, {
      ...process.env,
      PATH: fake.path,
    });
    assert.equal(loaded, false, "the plugin must not load");
    assert.equal(problems.length, 1, problems.join("\n"));
    assert.ok(problems[0].startsWith(`${file}: `), problems[0]);
    assert.match(problems[0], attack.error);
    assert.doesNotMatch(problems[0], /\n/);
    await noMarker(w, marker);
    assert.deepEqual(await fake.calls(), [], "no engine command ran");
  });
}

test("a manifest value used by a user's runner config cannot become an option", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await writeFile(
    path.join(await w.script("home/config/runner-configs.json", "{}"), ""),
    JSON.stringify({ tagged: { command_run: ["{command}", "{plugin.tag}", "{args}"] } }),
  );
  const { file, problems, loaded } = await load(w, {
    description: "x",
    command: "echo",
    runner: "native",
    runner_config: "tagged",
    tag: "--privileged",
  });
  assert.equal(loaded, false);
  assert.equal(
    problems[0],
    `${file}: runner config "tagged" (${w.homes.global}/config/runner-configs.json) command_run[1]: {plugin.tag} is "--privileged", which starts with "-" and would be read as an option`,
  );
});

const ARG_ATTACKS = (marker: string) => [
  `; touch ${marker}`,
  `$(touch ${marker})`,
  `\`touch ${marker}\``,
  `&& touch ${marker}`,
  "--privileged",
  "-v",
  "/:/host",
  "a,b",
  "a:b",
];

test("tool arguments reach a native command as exactly these argv entries", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const marker = path.join(w.root, "pwned");
  await w.script("echo.sh", `#!/bin/sh\nfor a in "$@"; do printf '[%s]\\n' "$a"; done\n`);
  await w.plugin("echoer", {
    description: "Echoes its arguments.",
    command: [path.join(w.root, "echo.sh")],
    runner: "native",
  });
  const { tool } = await activated(w.source(), "echoer");
  const args = ARG_ATTACKS(marker);
  const result = await call(tool, { args, input: `$(touch ${marker})` }, w.homes.workdir);
  assert.equal(result.output, `${args.map((a) => `[${a}]`).join("\n")}\n[exit code 0]`);
  await noMarker(w, marker);
});

test("tool arguments go after the image, where docker passes them to the container's command", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const marker = path.join(w.root, "pwned");
  const fake = await fakeEngines(w, [{ name: "docker" }]);
  await writeFile(fake.imageFile, "");
  await w.plugin("dotnet-test", { ...DOTNET_TEST, auto_discovery: [] });
  const { tool } = await activated(
    w.source({ env: { ...process.env, PATH: fake.path } }),
    "dotnet-test-plugin",
  );
  const args = ARG_ATTACKS(marker);
  const result = await call(tool, { args }, w.homes.workdir);
  assert.equal(result.error, false, result.output);
  const run = (await fake.calls()).at(-1) ?? [];
  const image = run.indexOf(DOTNET_TEST.image);
  assert.deepEqual(run.slice(0, image), [
    "docker",
    "run",
    "--rm",
    "-i",
    "--init",
    "--name",
    "{run_name}",
    "--mount",
    `type=bind,source=${w.homes.workdir},target=/app,readonly=true`,
    "--workdir",
    "/app",
  ]);
  assert.deepEqual(run.slice(image + 1), ["dotnet", "test", ...args]);
  await noMarker(w, marker);
});

test("an empty value cannot let the next one start an entry with -", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await w.script(
    "home/config/runner-configs.json",
    JSON.stringify({ joined: { command_run: ["{command}", "{plugin.a}{plugin.b}", "{args}"] } }),
  );
  const { file, problems, loaded } = await load(w, {
    description: "x",
    command: "echo",
    runner: "native",
    runner_config: "joined",
    a: "",
    b: "-v",
  });
  assert.equal(loaded, false);
  assert.match(
    problems[0],
    new RegExp(
      `^${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: .*command_run\\[1\\]: \\{plugin\\.b\\} is "-v", which starts with "-"`,
    ),
  );
});
