import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { test } from "node:test";
import { Contributions } from "../../contributions/contributions.ts";
import { probeEngine } from "./container-engine.ts";
import { DOTNET_TEST, fakeEngines } from "./fake-engine.ts";
import { activated, call, runnerWorld } from "./testing.ts";

const IMAGE = DOTNET_TEST.image;

for (const engine of ["docker", "podman"] as const) {
  test(`the seed's dotnet-test plugin runs through ${engine}-config with these exact command lines`, async (t) => {
    const w = await runnerWorld();
    t.after(() => w.cleanup());
    const fake = await fakeEngines(w, [{ name: engine }]);
    await writeFile(fake.imageFile, "");
    await w.plugin("dotnet-test", { ...DOTNET_TEST, runner_config: `${engine}-config` });
    const source = w.source({ env: { ...process.env, PATH: fake.path } });
    const { plugin, tool } = await activated(source, "dotnet-test-plugin");
    const work = w.homes.workdir;
    const mount = `type=bind,source=${work},target=/app,readonly=true`;
    const run = [
      ...[engine, "run", "--rm", "-i", "--init", "--name", "{run_name}"],
      ...["--mount", mount, "--workdir", "/app", IMAGE],
    ];
    const exists =
      engine === "docker"
        ? ["docker", "image", "inspect", "--format", "{{.Id}}", IMAGE]
        : ["podman", "image", "exists", IMAGE];
    assert.deepEqual(await fake.calls(), [
      [engine, "info"],
      exists,
      [...run, "dotnet", "test", "--help"],
    ]);
    assert.deepEqual(plugin.consentDetails.slice(0, 3), [
      `runs \`dotnet test\` in container image ${IMAGE} (${engine}, whichever answers)`,
      `mounts ${work} at /app (read-only)`,
      "network: allowed (network: false in the manifest cuts it off)",
    ]);
    assert.match(tool.description, /What `dotnet test --help` printed \(Invoke .*\):\nran in/);

    const result = await call(tool, { args: ["--filter", "Category=Unit"] }, work);
    assert.equal(result.error, false, result.output);
    assert.equal(
      result.output,
      `ran in ${engine}\nstdin={"args":["--filter","Category=Unit"]}\n[exit code 0]`,
    );
    assert.deepEqual((await fake.calls()).at(-1), [
      ...run,
      "dotnet",
      "test",
      "--filter",
      "Category=Unit",
    ]);
  });
}

test("write: true mounts read-write, network: false cuts the network, and consent says so", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const fake = await fakeEngines(w, [{ name: "docker" }]);
  await writeFile(fake.imageFile, "");
  await w.plugin("dotnet-test", {
    ...DOTNET_TEST,
    auto_discovery: [],
    mount: { host_path: "{working_dir}/src", path: "/app", write: true },
    network: false,
  });
  const { plugin, tool } = await activated(
    w.source({ env: { ...process.env, PATH: fake.path } }),
    "dotnet-test-plugin",
  );
  assert.deepEqual(plugin.consentDetails.slice(1, 3), [
    `mounts ${w.homes.workdir}/src at /app (read and write: it may change these files)`,
    "network: none",
  ]);
  await call(tool, {}, w.homes.workdir);
  assert.deepEqual((await fake.calls()).at(-1), [
    "docker",
    "run",
    "--rm",
    "-i",
    "--init",
    "--name",
    "{run_name}",
    "--network",
    "none",
    "--mount",
    `type=bind,source=${w.homes.workdir}/src,target=/app,readonly=false`,
    "--workdir",
    "/app",
    IMAGE,
    "dotnet",
    "test",
  ]);
});

test("a stopped container call also removes its container (command_stop, by the call's name)", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const fake = await fakeEngines(w, [{ name: "docker" }]);
  await writeFile(fake.imageFile, "");
  await w.plugin("dotnet-test", { ...DOTNET_TEST, auto_discovery: [], timeout_seconds: 2 });
  const { tool } = await activated(
    w.source({ env: { ...process.env, PATH: fake.path } }),
    "dotnet-test-plugin",
  );
  const first = await call(tool, { args: ["hang"] }, w.homes.workdir);
  assert.match(first.output, /timed out after 2 s and was killed/);
  const second = await call(tool, { args: ["hang"] }, w.homes.workdir);
  assert.equal(second.error, true);
  const calls = (await fake.calls({ raw: true })).filter((c) => c[1] === "run" || c[1] === "rm");
  const names = calls.map((c) => (c[1] === "run" ? c[c.indexOf("--name") + 1] : c[3]));
  assert.deepEqual(
    calls.map((c) => c.slice(0, 3).join(" ")),
    ["docker run --rm", "docker rm --force", "docker run --rm", "docker rm --force"],
  );
  assert.equal(names[0], names[1], "the container the first call started is removed");
  assert.equal(names[2], names[3]);
  assert.notEqual(names[0], names[2], "every call has a name of its own");
  assert.match(names[0], /^islet-dotnet-test-plugin-[0-9a-f]{8}$/);
});

test("without runner_config, the engine that is present AND answers is used", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const fake = await fakeEngines(w, [{ name: "docker", down: true }, { name: "podman" }]);
  await writeFile(fake.imageFile, "");
  await w.plugin("dotnet-test", { ...DOTNET_TEST, auto_discovery: [] });
  const { tool } = await activated(
    w.source({ env: { ...process.env, PATH: fake.path } }),
    "dotnet-test-plugin",
  );
  const result = await call(tool, {}, w.homes.workdir);
  assert.match(result.output, /^ran in podman/);
  const calls = (await fake.calls()).map((c) => c.slice(0, 2).join(" "));
  assert.deepEqual(calls, ["docker info", "podman info", "podman image", "podman run"]);
});

test("no engine answers: activation fails with one line saying why and what to do", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const fake = await fakeEngines(w, [{ name: "docker", down: true }]);
  await w.plugin("dotnet-test", DOTNET_TEST);
  const { plugins } = await w.source({ env: { ...process.env, PATH: fake.path } }).discover();
  const c = new Contributions();
  await assert.rejects(plugins[0].activate(c.registrar()), (err: Error) => {
    assert.equal(
      err.message,
      "dotnet-test-plugin: no container engine answers (docker is installed but does not answer " +
        "(Cannot connect to the docker daemon at unix:///var/run/docker.sock); podman is not installed): " +
        `start docker or podman, or set runner: native in ${plugins[0].manifestFile}`,
    );
    return true;
  });
  assert.equal(c.tools.get("dotnet-test-plugin"), undefined);
});

test("a real container run, where an engine answers", async (t) => {
  const cwd = process.cwd();
  const probes = await Promise.all(
    ["docker", "podman"].map((e) => probeEngine(e, { env: process.env, cwd })),
  );
  const engine = probes.find((p) => p.answers);
  if (!engine) {
    t.skip(`no container engine: ${probes.map((p) => p.why).join("; ")}`);
    return;
  }
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await writeFile(`${w.homes.workdir}/hello.txt`, "hello from the host\n");
  await w.plugin("cat-file", {
    description: "Reads a file of the workspace inside a container.",
    command: ["cat", "/app/hello.txt"],
    runner: "container",
    runner_config: `${engine.engine}-config`,
    image: "docker.io/library/alpine:3",
    mount: { host_path: "{working_dir}", path: "/app" },
    network: false,
  });
  const source = w.source({ confirmInstall: async () => true });
  const { tool } = await activated(source, "cat-file");
  const result = await call(tool, {}, w.homes.workdir, { timeoutMs: 300_000 });
  assert.equal(result.output, "hello from the host\n[exit code 0]");
});

test("a named engine that is down or missing: one line saying to start or install it", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const fake = await fakeEngines(w, [{ name: "docker", down: true }]);
  const file = await w.plugin("dotnet-test", { ...DOTNET_TEST, runner_config: "docker-config" });
  await w.plugin("dotnet-pod", {
    ...DOTNET_TEST,
    name: "dotnet-pod",
    runner_config: "podman-config",
  });
  const source = w.source({ env: { ...process.env, PATH: fake.path } });
  const { plugins } = await source.discover();
  const errors = await Promise.all(
    plugins.map((p) =>
      p.activate(new Contributions().registrar()).then(
        () => "",
        (e: Error) => e.message,
      ),
    ),
  );
  assert.deepEqual(errors, [
    `dotnet-pod: podman is not installed: install it, or set runner: native in ${plugins[0].manifestFile}`,
    "dotnet-test-plugin: docker is installed but does not answer (Cannot connect to the docker daemon " +
      `at unix:///var/run/docker.sock): start it, or set runner: native in ${file}`,
  ]);
});
