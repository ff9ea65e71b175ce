/**
 * Marketplaces that carry the same plugins, as claude-plugins-official carries eleven of
 * anthropics/claude-code's: the second installs beside the first, the consent and the result
 * say which plugins the first goes on serving, only one copy of each loads, an update may bring
 * one more, and removing the first pack hands them over. A code plugin of the same name, or one plugin asked for by name,
 * is still refused.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { ClaudePluginSource } from "../extensions/claude/source.ts";
import { formatProblem } from "../host/problem.ts";
import { packInstallLines, packUpdateLines } from "../host/pack-question-text.ts";
import { gitRepos, type GitRepos } from "./testing/git-servers.ts";
import { consenting, packEnv, type PackEnv } from "./testing/pack-env.ts";

let repos: GitRepos;
before(async () => {
  repos = await gitRepos();
});
after(() => repos.close());

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** A marketplace whose plugins each have one command saying where it came from. */
function marketplace(name: string, plugins: string[]): Record<string, string> {
  const files: Record<string, string> = {
    ".claude-plugin/marketplace.json": json({
      name,
      owner: { name: "someone" },
      plugins: plugins.map((p) => ({ name: p, source: `./plugins/${p}` })),
    }),
  };
  for (const p of plugins) {
    files[`plugins/${p}/.claude-plugin/plugin.json`] = json({ name: p });
    files[`plugins/${p}/commands/go.md`] = `From ${name}: $ARGUMENTS\n`;
  }
  return files;
}

async function claudeLoad(env: PackEnv) {
  const source = new ClaudePluginSource({
    homes: env.homes,
    flags: { trustedProject: true },
    warn: () => {},
  });
  const { found, notes } = await source.discover();
  return {
    rows: found.map((p) => `${p.name} ${p.status} ${p.commands[0]?.body.trim() ?? ""}`),
    found,
    notes: notes.map(formatProblem),
  };
}

test("a marketplace carrying another's plugins installs beside it: one copy of each loads, and removing the first pack hands them over", async () => {
  await using env = await packEnv();
  const small = await repos.create("small", marketplace("small", ["tidy", "lint"]));
  const big = await repos.create("big", marketplace("big", ["tidy", "lint", "extra"]));
  await env.manager().add({ source: small.fileUrl, scope: "global" }, consenting());

  const hooks = consenting();
  const pack = await env.manager().add({ source: big.fileUrl, scope: "global" }, hooks);
  assert.deepEqual(pack.sameNamed, [{ pack: "small", plugins: ["lint", "tidy"] }]);
  const question = hooks.asked[0];
  assert.equal(question?.kind, "pack-install");
  if (question?.kind !== "pack-install") return;
  assert.deepEqual(question.sameNamed, [{ pack: "small", plugins: ["lint", "tidy"] }]);
  assert.ok(
    packInstallLines(question).includes(
      "  Already installed from small, whose copies go on loading (these do not): lint, tidy",
    ),
    packInstallLines(question).join("\n"),
  );

  const loaded = await claudeLoad(env);
  assert.deepEqual(loaded.rows, [
    "extra enabled From big: $ARGUMENTS",
    "lint enabled From small: $ARGUMENTS",
    "lint shadowed From big: $ARGUMENTS",
    "tidy enabled From small: $ARGUMENTS",
    "tidy shadowed From big: $ARGUMENTS",
  ]);
  const shadowed = loaded.found.find((p) => p.status === "shadowed");
  assert.equal(shadowed?.shadowedBy?.where, "pack small");
  assert.deepEqual(loaded.notes, [
    `${env.globalPlugins}/big: 2 plugins of pack big do not load: pack small has them under the same names (lint, tidy); to load pack big's instead, islet plugins remove small`,
  ]);

  // small gains a plugin big has: its update installs it, but the copy big brought first goes
  // on loading. A pack installed long ago cannot take a name over by adding it in an update.
  await small.commit("extra too", marketplace("small", ["tidy", "lint", "extra"]));
  const updateHooks = consenting();
  const updated = await env.manager().update("small", updateHooks);
  assert.equal(updated.changed, true);
  assert.deepEqual(updated.sameNamed, [{ pack: "big", plugins: ["extra"] }]);
  const asked = updateHooks.asked[0];
  assert.equal(asked?.kind, "pack-update");
  if (asked?.kind !== "pack-update") return;
  assert.deepEqual(asked.added, ["extra"]);
  assert.deepEqual(asked.sameNamed, [{ pack: "big", plugins: ["extra"] }]);
  const lines = packUpdateLines(asked);
  assert.ok(lines.includes("  adds: extra"), lines.join("\n"));
  assert.ok(
    lines.includes(
      "    Already installed from big, whose copies go on loading (these do not): extra",
    ),
    lines.join("\n"),
  );
  const rows = (await claudeLoad(env)).rows;
  assert.deepEqual(rows.slice(0, 2), [
    "extra enabled From big: $ARGUMENTS",
    "extra shadowed From small: $ARGUMENTS",
  ]);
  // The next update keeps the time the plugin came, and does not ask about it again.
  const sidecar = () => readFile(path.join(env.globalPlugins, "small", ".origin.yaml"), "utf8");
  const addedAt = /extra: (\S+)/.exec(await sidecar())?.[1];
  assert.ok(addedAt, await sidecar());
  await small.commit("docs", {
    ...marketplace("small", ["tidy", "lint", "extra"]),
    "README.md": "hi\n",
  });
  const next = await env.manager().update("small", consenting());
  assert.equal(next.changed, true);
  assert.equal(next.sameNamed, undefined);
  assert.equal(/extra: (\S+)/.exec(await sidecar())?.[1], addedAt);
  assert.deepEqual((await claudeLoad(env)).rows.slice(0, 1), [
    "extra enabled From big: $ARGUMENTS",
  ]);

  await env.manager().remove("small");
  const after = await claudeLoad(env);
  assert.deepEqual(after.rows, [
    "extra enabled From big: $ARGUMENTS",
    "lint enabled From big: $ARGUMENTS",
    "tidy enabled From big: $ARGUMENTS",
  ]);
  assert.deepEqual(after.notes, []);
});

test("a code plugin of the same name, or one plugin asked for by name, is still refused", async () => {
  await using env = await packEnv();
  const small = await repos.create("first", marketplace("small", ["tidy"]));
  await env.manager().add({ source: small.fileUrl, name: "small", scope: "global" }, consenting());

  const code = await repos.create("code", {
    "tidy/plugin.yaml": "description: a code plugin named like the Claude one\n",
    "tidy/index.ts": "export function beforeChat() { return undefined; }\n",
    "other/plugin.yaml": "description: another\n",
    "other/index.ts": "export function beforeChat() { return undefined; }\n",
  });
  await assert.rejects(
    env.manager().add({ source: code.fileUrl, scope: "global" }, consenting()),
    /plugin "tidy" is already installed in the global plugins \(pack small, .*\): remove that pack first/,
  );

  const big = await repos.create("second", marketplace("big", ["tidy", "extra"]));
  await assert.rejects(
    env.manager().add({ source: big.fileUrl, plugin: "tidy", scope: "global" }, consenting()),
    /plugin "tidy" is already installed in the global plugins \(pack small, .*\): remove that pack first, or pick another --name/,
  );
  // Nothing of either was installed (keeper: the environment's own pack).
  assert.deepEqual(
    (await env.manager().list()).map((p) => p.name),
    ["keeper", "small"],
  );
});
