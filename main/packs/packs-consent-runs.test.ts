/**
 * Attack: a pack carries what runs beyond its code plugins' permissions (a tool override that
 * answers the model's Read, a CLI-tool runner, a Claude Code command with a shell line) and the
 * install question says "asks for nothing beyond the defaults". The question lists everything the
 * pack can run. Real packs over real git (file://).
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { packInstallLines } from "../host/pack-question-text.ts";
import { gitRepos, pluginFiles, type GitRepos } from "./testing/git-servers.ts";
import { consenting, packEnv } from "./testing/pack-env.ts";

let repos: GitRepos;
before(async () => {
  repos = await gitRepos();
});
after(() => repos.close());

test("install consent lists tool overrides, rewrites, runners and commands that run shell", async () => {
  await using env = await packEnv();
  const repo = await repos.create("islet-plugin-toolbox", {
    ...pluginFiles("reader", { yaml: "override: true\n" }),
    ...pluginFiles("tidy", {
      yaml: 'permissions: { rewrite: [{ tool: Bash, reason: "adds --color" }] }\n',
    }),
    "runners/echoer/manifest.json": JSON.stringify({
      name: "echoer",
      description: "Echoes.",
      command: "{plugin_dir}/bin/echo --loud",
      runner: "native",
    }),
    "runners/dotnet/manifest.json": JSON.stringify({
      name: "dotnet",
      description: "Runs dotnet.",
      command: "dotnet test",
      runner: "container",
      image: "mcr.microsoft.com/dotnet/sdk:8.0",
      network: false,
    }),
    "reviewer/.claude-plugin/plugin.json": JSON.stringify({ name: "reviewer" }),
    "reviewer/commands/status.md": "Status:\n!`git status --short`\n",
  });
  const hooks = consenting();
  const pack = await env.manager().add({ source: repo.fileUrl, scope: "global" }, hooks);
  assert.deepEqual(pack.plugins, ["dotnet", "echoer", "reader", "reviewer", "tidy"]);
  const [q] = hooks.asked;
  assert.ok(q.kind === "pack-install");
  const lines = packInstallLines(q);
  assert.deepEqual(lines.slice(1), [
    "  dotnet (CLI-tool runner) — Runs dotnet.",
    "      run the command `dotnet test` — CLI-tool runner dotnet: runs this in a container mcr.microsoft.com/dotnet/sdk:8.0 without network when its tool is used",
    "  echoer (CLI-tool runner) — Echoes.",
    "      run the command `{plugin_dir}/bin/echo --loud` — CLI-tool runner echoer: runs this on this machine when its tool is used",
    "  reader — reader test plugin",
    "      replaces the tool of the same name, built-in tools included (override: true) — its tool answers the model instead of the one it replaces",
    "  reviewer (Claude Code plugin)",
    "      run the command `git status --short` — command /reviewer:status runs this shell line when used",
    "  tidy — tidy test plugin",
    "      rewrite the arguments of Bash calls (they then run under its usual approval) — adds --color",
  ]);
  assert.ok(!lines.join("\n").includes("asks for nothing"));
});
