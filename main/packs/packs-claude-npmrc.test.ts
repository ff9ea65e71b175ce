/**
 * Vendoring a Claude Code marketplace in the shape of anthropics/claude-plugins-official, where a
 * few plugins (external_plugins/discord, imessage, telegram, fakechat) pin npm's registry with an
 * `.npmrc`: those are not vendored (npm would read that file while installing), the others are,
 * and the skipped ones are said in one line however many there are.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { promisify } from "node:util";
import { ClaudePluginSource } from "../extensions/claude/source.ts";
import { gitRepos, type GitRepos } from "./testing/git-servers.ts";
import { consenting, packEnv, type PackEnv } from "./testing/pack-env.ts";

const run = promisify(execFile);
let repos: GitRepos;
before(async () => {
  repos = await gitRepos();
});
after(() => repos.close());

const json = (v: unknown) => JSON.stringify(v, null, 2);
const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

/** A one-file npm package as a tarball (installed with `file:`, no registry). */
async function tinyDep(env: PackEnv): Promise<Buffer> {
  const work = await mkdtemp(path.join(env.root, "dep-"));
  await writeFile(
    path.join(work, "package.json"),
    json({ name: "tiny-dep", version: "1.0.0", main: "index.js" }),
  );
  await writeFile(path.join(work, "index.js"), "exports.ok = true;\n");
  await run("npm", ["pack", "--pack-destination", work, "--loglevel=error"], {
    cwd: work,
    env: { ...env.env },
  });
  return readFile(path.join(work, "tiny-dep-1.0.0.tgz"));
}

/** The marketplace: `pinned` plugins ship an .npmrc (as discord does), and "notes" does not. */
async function marketplace(env: PackEnv, name: string, pinned: string[]) {
  const tgz = await tinyDep(env);
  const deps = (plugin: string) =>
    json({ name: plugin, dependencies: { "tiny-dep": "file:./deps/tiny-dep-1.0.0.tgz" } });
  const files: Record<string, string | Buffer> = {
    ".claude-plugin/marketplace.json": json({
      name,
      owner: { name: "someone" },
      plugins: [
        ...pinned.map((p) => ({ name: p, source: `./external_plugins/${p}` })),
        { name: "notes", source: "./plugins/notes" },
      ],
    }),
    "plugins/notes/.claude-plugin/plugin.json": json({ name: "notes" }),
    "plugins/notes/package.json": deps("notes"),
    "plugins/notes/deps/tiny-dep-1.0.0.tgz": tgz,
    "plugins/notes/commands/note.md": "Take a note\n",
  };
  for (const p of pinned) {
    // The shape of external_plugins/discord: a bun MCP server whose folder pins npm's registry.
    files[`external_plugins/${p}/.claude-plugin/plugin.json`] = json({ name: p });
    files[`external_plugins/${p}/.npmrc`] = "registry=https://registry.npmjs.org/\n";
    files[`external_plugins/${p}/package.json`] = deps(p);
    files[`external_plugins/${p}/deps/tiny-dep-1.0.0.tgz`] = tgz;
    files[`external_plugins/${p}/.mcp.json`] = json({
      mcpServers: { [p]: { command: "bun", args: ["run", "server.ts"] } },
    });
  }
  return repos.create(name, files);
}

async function loaded(env: PackEnv): Promise<string[]> {
  const source = new ClaudePluginSource({
    homes: env.homes,
    flags: { trustedProject: true },
    warn: () => {},
  });
  return (await source.discover()).found.map((p) => p.name);
}

test("a marketplace where one plugin ships an .npmrc installs: that plugin is not vendored (one line), the others are", async () => {
  await using env = await packEnv();
  const repo = await marketplace(env, "official", ["discord"]);
  const pack = await env.manager().add({ source: repo.fileUrl, scope: "global" }, consenting());
  assert.deepEqual(pack.plugins, ["discord", "notes"]);
  assert.ok(await exists(path.join(pack.dir, "plugins/notes/node_modules/tiny-dep/index.js")));
  assert.equal(
    await exists(path.join(pack.dir, "external_plugins/discord/node_modules")),
    false,
    "npm never ran where an .npmrc would configure it",
  );
  const lines = env.warnings.filter((w) => /not vendored/.test(w));
  assert.deepEqual(lines.length, 1, env.warnings.join("\n"));
  assert.match(
    lines[0]!,
    /^official\/external_plugins\/discord\/\.npmrc: not vendored: it ships an \.npmrc/,
  );
  assert.deepEqual(await loaded(env), ["discord", "notes"]);
});

test("four plugins shipping an .npmrc are one line naming them all", async () => {
  await using env = await packEnv();
  const pinned = ["discord", "fakechat", "imessage", "telegram"];
  const repo = await marketplace(env, "official4", pinned);
  const pack = await env.manager().add({ source: repo.fileUrl, scope: "global" }, consenting());
  for (const p of pinned)
    assert.equal(await exists(path.join(pack.dir, "external_plugins", p, "node_modules")), false);
  assert.ok(await exists(path.join(pack.dir, "plugins/notes/node_modules/tiny-dep/index.js")));
  const lines = env.warnings.filter((w) => /not vendored/.test(w));
  assert.deepEqual(lines, [
    "official4: 4 plugins not vendored: each ships an .npmrc, which would configure npm while vendoring (external_plugins/discord, external_plugins/fakechat, external_plugins/imessage, external_plugins/telegram); the rest of the pack is; read each, then run npm install in its folder yourself",
  ]);
  assert.deepEqual(await loaded(env), [...pinned, "notes"].sort());
});
