import assert from "node:assert/strict";
import { test } from "node:test";
import { Contributions } from "../../contributions/contributions.ts";
import { DOTNET_TEST, fakeEngines } from "./fake-engine.ts";
import type { InstallRequest } from "./health.ts";
import { runnerWorld } from "./testing.ts";

const IMAGE = DOTNET_TEST.image;

async function activationError(
  plugins: { name: string; activate(r: ReturnType<Contributions["registrar"]>): Promise<void> }[],
  name: string,
): Promise<string> {
  const plugin = plugins.find((p) => p.name === name);
  assert.ok(plugin, `${name} discovered`);
  const c = new Contributions();
  try {
    await plugin.activate(c.registrar());
  } catch (err) {
    assert.equal(c.tools.get(name), undefined, "a plugin that fails its check adds no tool");
    return (err as Error).message;
  }
  throw new Error(`${name} activated`);
}

test("a native command that is not installed: one line naming it and what to do", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await w.plugin("missing", {
    description: "Runs something absent.",
    command: "islet-no-such-program --version",
    runner: "native",
  });
  const { plugins, problems } = await w.source().discover();
  assert.deepEqual(problems, []);
  const message = await activationError(plugins, "missing");
  assert.equal(
    message,
    `missing: "islet-no-such-program" is not installed (not found on PATH; command in ${plugins[0].manifestFile}): install it, or use runner: container with an image that has it`,
  );
});

test("a missing image: one line saying what to run, and nothing is pulled without consent", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const fake = await fakeEngines(w, [{ name: "docker" }]);
  await w.plugin("dotnet-test", { ...DOTNET_TEST, runner_config: "docker-config" });
  const asked: InstallRequest[] = [];
  const source = w.source({
    env: { ...process.env, PATH: fake.path },
    confirmInstall: async (request) => {
      asked.push(request);
      return false;
    },
  });
  const { plugins } = await source.discover();
  const message = await activationError(plugins, "dotnet-test-plugin");
  assert.equal(
    message,
    `dotnet-test-plugin: \`docker image inspect --format '{{.Id}}' ${IMAGE}\` failed (Error: No such image): run \`docker pull ${IMAGE}\`, then activate it again`,
  );
  assert.deepEqual(asked, [
    {
      plugin: "dotnet-test-plugin",
      command: `docker pull ${IMAGE}`,
      reason: `\`docker image inspect --format '{{.Id}}' ${IMAGE}\` failed (Error: No such image)`,
    },
  ]);
  assert.ok(!(await fake.calls()).some((c) => c[1] === "pull"), "no pull without consent");
});

test("with consent, command_install runs and activation goes on", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const fake = await fakeEngines(w, [{ name: "podman" }]);
  await w.plugin("dotnet-test", { ...DOTNET_TEST, runner_config: "podman-config" });
  const source = w.source({
    env: { ...process.env, PATH: fake.path },
    confirmInstall: async () => true,
  });
  const { plugins } = await source.discover();
  const c = new Contributions();
  await plugins[0].activate(c.registrar());
  assert.ok(c.tools.get("dotnet-test-plugin"));
  const calls = (await fake.calls()).map((call) => call.slice(0, 3).join(" "));
  assert.deepEqual(calls, [
    "podman info",
    "podman image exists",
    "podman pull mcr.microsoft.com/dotnet/sdk:6.0",
    "podman image exists",
    "podman run --rm",
  ]);
});

test("without a way to ask, a missing image is an error and nothing is pulled", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const fake = await fakeEngines(w, [{ name: "docker" }]);
  await w.plugin("dotnet-test", DOTNET_TEST);
  const { plugins } = await w.source({ env: { ...process.env, PATH: fake.path } }).discover();
  const message = await activationError(plugins, "dotnet-test-plugin");
  assert.match(
    message,
    /^dotnet-test-plugin: .* failed \(Error: No such image\): run `docker pull /,
  );
  assert.doesNotMatch(message, /\n/);
  assert.ok(!(await fake.calls()).some((c) => c[1] === "pull"));
});
