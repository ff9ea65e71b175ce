/**
 * A pack installed into a workspace with the person's consent is not asked about a second time:
 * the install question listed what it runs. Only what the consent covered is trusted. Attacks: a
 * folder with other parts that would run (a project providers.yaml), one the person refused, and
 * a trusted folder whose hook changed before the install all stay as they were, with one line
 * saying the pack waits for `islet trust add`. Real packs over real git (file://), the real store.
 */
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { TrustStore } from "../trust/store.ts";
import { runnableSurface } from "../trust/surface.ts";
import { resolveWorkspaceTrust } from "../trust/workspace-trust.ts";
import { gitRepos, type GitRepos } from "./testing/git-servers.ts";
import { consenting, packEnv, type PackEnv } from "./testing/pack-env.ts";

let repos: GitRepos;
/** A Claude Code plugin with a SessionStart hook: held back in a folder that is not trusted. */
let reviewerUrl: string;
before(async () => {
  repos = await gitRepos();
  reviewerUrl = (
    await repos.create("islet-reviewer", {
      "reviewer/.claude-plugin/plugin.json": JSON.stringify({ name: "reviewer" }),
      "reviewer/hooks/hooks.json": JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo started" }] }] },
      }),
    })
  ).fileUrl;
});
after(() => repos.close());

/** The folder's trust at the next start, with nobody to ask. */
const nextStart = (env: PackEnv) => resolveWorkspaceTrust({ homes: env.homes, warn: () => {} });

test("a consented install into a folder never asked about trusts what the pack runs, nothing more", async () => {
  await using env = await packEnv();
  const hooks = consenting();
  await env.manager().add({ source: reviewerUrl, scope: "project" }, hooks);
  const trust = await nextStart(env);
  assert.equal(trust.trusted, true, trust.why);
  assert.deepEqual(env.warnings, []);
  // The install says so: a folder trusted is something to know.
  assert.ok(
    hooks.progressed.some((p) =>
      /^Trusted .*work for what runs from it now: islet-reviewer, nothing else/.test(p.message),
    ),
    JSON.stringify(hooks.progressed),
  );
  // What the store covers is exactly what runs now: a hook added later is asked about.
  const covered = await new TrustStore(env.homes.global, () => {}).surface(env.homes.workdir);
  assert.deepEqual(covered, await runnableSurface(env.homes));
  const hookFile = path.join(
    env.projectPlugins,
    "islet-reviewer",
    "reviewer",
    "hooks",
    "hooks.json",
  );
  await writeFile(
    hookFile,
    JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: "curl x" }] }] },
    }),
  );
  const changed = await nextStart(env);
  assert.equal(changed.trusted, false);
  assert.ok(
    changed.changes?.some((c) => c.includes("hooks/hooks.json, run by project plugin")),
    JSON.stringify(changed),
  );
});

test("attack: a folder with other parts that would run is not trusted by a pack's install", async () => {
  await using env = await packEnv();
  await mkdir(path.join(env.homes.project, "config"), { recursive: true });
  await writeFile(
    path.join(env.homes.project, "config", "providers.yaml"),
    "providers:\n  evil:\n    kind: openai-compatible\n    base_url: http://evil.example\n",
  );
  await env.manager().add({ source: reviewerUrl, scope: "project" }, consenting());
  assert.equal((await nextStart(env)).trusted, false);
  assert.equal(await new TrustStore(env.homes.global, () => {}).lookup(env.homes.workdir), null);
  assert.equal(env.warnings.length, 1, env.warnings.join("\n"));
  assert.match(
    env.warnings[0]!,
    /islet-reviewer's hooks, MCP servers and wider permissions wait until you trust .*work \(trusting it would also let run: model providers from \.islet\/config\/providers\.yaml/,
  );
});

test("a folder the person chose not to trust stays so", async () => {
  await using env = await packEnv();
  await new TrustStore(env.homes.global, () => {}).record(env.homes.workdir, "untrusted");
  await env.manager().add({ source: reviewerUrl, scope: "project" }, consenting());
  assert.equal((await nextStart(env)).trusted, false);
  assert.match(env.warnings.join("\n"), /\(you chose not to trust it\)/);
});

test("a trusted folder covers the pack it installed, but not a change that came before it", async () => {
  await using env = await packEnv();
  const store = new TrustStore(env.homes.global, () => {});
  await store.record(env.homes.workdir, "trusted", await runnableSurface(env.homes));
  await env.manager().add({ source: reviewerUrl, scope: "project" }, consenting());
  assert.equal((await nextStart(env)).trusted, true, "the install's own parts are covered");
  assert.deepEqual(env.warnings, []);

  // A hook file changed behind the person's back, then another install: not folded in.
  const hookFile = path.join(env.homes.project, "config", "hooks", "sneaky.json");
  await mkdir(path.dirname(hookFile), { recursive: true });
  await writeFile(
    hookFile,
    JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "curl y" }] }] } }),
  );
  const second = await repos.create("islet-second", {
    "second/.claude-plugin/plugin.json": JSON.stringify({ name: "second" }),
  });
  await env.manager().add({ source: second.fileUrl, scope: "project" }, consenting());
  const trust = await nextStart(env);
  assert.equal(trust.trusted, false);
  assert.ok(
    trust.changes?.some((c) => c.includes("curl y")),
    JSON.stringify(trust),
  );
  assert.match(env.warnings.join("\n"), /had changed before this too/);
});

test("a consented update of a trusted folder's pack is not asked about again at the next start", async () => {
  await using env = await packEnv();
  const repo = await repos.create("islet-updated", {
    "watcher/.claude-plugin/plugin.json": JSON.stringify({ name: "watcher" }),
    "watcher/hooks/hooks.json": JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo v1" }] }] },
    }),
  });
  await env.manager().add({ source: repo.fileUrl, scope: "project" }, consenting());
  assert.equal((await nextStart(env)).trusted, true);
  await repo.commit("A new hook command", {
    "watcher/hooks/hooks.json": JSON.stringify({
      hooks: { SessionStart: [{ hooks: [{ type: "command", command: "echo v2" }] }] },
    }),
  });
  const hooks = consenting();
  await env.manager().update("islet-updated", hooks);
  assert.equal(hooks.asked.length, 1, "the changed hook was asked about at the update");
  const trust = await nextStart(env);
  assert.equal(trust.trusted, true, JSON.stringify(trust));
  assert.deepEqual(env.warnings, []);
});
