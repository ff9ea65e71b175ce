/**
 * Real Claude Code marketplaces install whole, in the shapes of anthropics/claude-plugins-official
 * and anthropics/claude-code (packs-claude-npmrc.test.ts: vendoring them): folders
 * the marketplace lists without plugin.json load (named by the entry, `strict: false` parts, LSP
 * servers skipped in one line), and entries from other repositories install as packs of their own
 * from a loopback git daemon, with the consent question naming the marketplace.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { ClaudePluginSource } from "../extensions/claude/source.ts";
import { formatProblem } from "../host/problem.ts";
import { packInstallLines } from "../host/pack-question-text.ts";
import type { QuestionOf } from "../host/questions.ts";
import { gitRepos, startGitDaemon, type GitRepos, type GitServer } from "./testing/git-servers.ts";
import { consenting, packEnv, type PackEnv } from "./testing/pack-env.ts";

let repos: GitRepos;
let daemon: GitServer;

before(async () => {
  repos = await gitRepos();
  daemon = await startGitDaemon(repos.served);
});
after(async () => {
  await daemon.close();
  await repos.close();
});

const json = (v: unknown) => JSON.stringify(v, null, 2);

/** What the Claude Code plugin loader finds in both homes, and every line it reports. */
async function claudeLoad(env: PackEnv) {
  const warnings: string[] = [];
  const source = new ClaudePluginSource({
    homes: env.homes,
    flags: { trustedProject: true },
    warn: (p) => warnings.push(formatProblem(p)),
  });
  const { found, problems, notes } = await source.discover();
  const lines = [
    ...problems.map(formatProblem),
    ...found.flatMap((p) => p.warnings.map(formatProblem)),
  ];
  return { found, lines, warnings, notes: notes.map(formatProblem) };
}

test("plugins a marketplace lists without plugin.json load from their folders: named by the entry, strict: false parts, language servers from the entry", async () => {
  await using env = await packEnv();
  const repo = await repos.create("market", {
    ".claude-plugin/marketplace.json": json({
      name: "market",
      owner: { name: "someone" },
      metadata: { pluginRoot: "./plugins" },
      plugins: [
        // claude-plugins-official's plugins/receipts: skills/ only, no manifest.
        { name: "receipts", source: "./plugins/receipts", description: "Impact report" },
        // anthropics/claude-code's plugins/plugin-dev: every default folder, no manifest.
        { name: "plugin-dev", source: "plugin-dev" },
        // The *-lsp plugins: a README and the entry's lspServers, strict: false.
        {
          name: "clangd-lsp",
          source: "./plugins/clangd-lsp",
          strict: false,
          lspServers: { clangd: { command: "clangd", extensionToLanguage: { ".c": "c" } } },
        },
        // Skills listed by the entry, each a folder holding SKILL.md (box, amd-skills).
        {
          name: "kit",
          source: "./plugins/kit",
          strict: false,
          skills: ["./skills/box", "./skills/gone"],
        },
      ],
    }),
    "plugins/receipts/skills/receipts/SKILL.md":
      "---\nname: receipts\ndescription: What you shipped\n---\nWrite the report.\n",
    "plugins/receipts/README.md": "# receipts\n",
    "plugins/plugin-dev/commands/create-plugin.md": "Create a plugin\n",
    "plugins/plugin-dev/agents/plugin-validator.md":
      "---\nname: plugin-validator\ndescription: Checks plugins\n---\nCheck it.\n",
    "plugins/plugin-dev/skills/hook-development/SKILL.md":
      "---\nname: hook-development\ndescription: Hooks\n---\nHooks.\n",
    "plugins/plugin-dev/hooks/hooks.json": json({
      hooks: { Stop: [{ hooks: [{ type: "command", command: "echo done" }] }] },
    }),
    "plugins/plugin-dev/.mcp.json": json({
      mcpServers: { docs: { command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/docs.js"] } },
    }),
    "plugins/clangd-lsp/README.md": "# clangd\n",
    "plugins/kit/skills/box/SKILL.md": "---\nname: box\ndescription: Box files\n---\nBox.\n",
  });
  const hooks = consenting();
  const pack = await env.manager().add({ source: repo.fileUrl, scope: "global" }, hooks);
  assert.deepEqual(pack.plugins, ["clangd-lsp", "kit", "plugin-dev", "receipts"]);
  const q = hooks.asked[0] as QuestionOf<"pack-install">;
  assert.deepEqual(
    q.plugins.find((p) => p.name === "plugin-dev")?.permissions.map((i) => i.target),
    ["echo done", "node ${CLAUDE_PLUGIN_ROOT}/docs.js"],
  );
  const { found, lines } = await claudeLoad(env);
  const byName = new Map(found.map((p) => [p.name, p]));
  assert.deepEqual([...byName.keys()], ["clangd-lsp", "kit", "plugin-dev", "receipts"]);
  // The *-lsp plugins' language servers come from their marketplace entry.
  assert.deepEqual(
    byName.get("clangd-lsp")!.lspServers.map((l) => l.name),
    ["clangd"],
  );
  const receipts = byName.get("receipts")!;
  assert.deepEqual(
    receipts.skills.map((s) => s.name),
    ["receipts:receipts"],
  );
  assert.equal(receipts.manifest.description, "Impact report");
  assert.deepEqual(
    receipts.errors,
    [],
    "no plugin.json is not an error when a marketplace lists it",
  );
  const dev = byName.get("plugin-dev")!;
  assert.deepEqual(
    dev.commands.map((c) => c.name),
    ["plugin-dev:create-plugin"],
  );
  assert.deepEqual(
    dev.agents.map((a) => a.name),
    ["plugin-dev:plugin-validator"],
  );
  assert.equal(dev.skills.length, 1);
  assert.equal(dev.hooks.length, 1);
  assert.deepEqual(
    dev.mcpServers.map((m) => m.name),
    ["plugin_plugin-dev_docs"],
  );
  assert.deepEqual(
    byName.get("kit")!.skills.map((s) => s.name),
    ["kit:box"],
  );
  assert.ok(
    lines.includes(
      `${path.join(pack.dir, "plugins/kit/skills/gone")}: listed in "skills" but not there, skipped`,
    ),
    lines.join("\n"),
  );
});

test("an entry from another repository installs as its own pack (--plugin): cloned from its server at the marketplace's commit, with the entry's parts; the marketplace's question lists it", async () => {
  await using env = await packEnv();
  const skills = await repos.create("skills", {
    "skills/local-ai/SKILL.md": "---\nname: local-ai\ndescription: Local AI\n---\nUse it.\n",
    "skills/unlisted/SKILL.md": "---\nname: unlisted\ndescription: Not listed\n---\nNo.\n",
  });
  const pinned = await skills.head();
  await skills.commit("later", {
    "skills/local-ai/SKILL.md": "---\nname: local-ai\ndescription: Later\n---\nLater.\n",
  });
  await repos.create("whole", {
    ".claude-plugin/plugin.json": json({ name: "whole", description: "A whole repository" }),
    "commands/hello.md": "Say hello\n",
  });
  const market = await repos.create("claude-plugins", {
    ".claude-plugin/marketplace.json": json({
      name: "claude-plugins",
      owner: { name: "someone" },
      plugins: [
        { name: "local", source: "./plugins/local" },
        {
          name: "amd-skills",
          description: "Skills from elsewhere",
          source: {
            source: "git-subdir",
            url: daemon.url("skills"),
            path: "skills",
            ref: "main",
            sha: pinned,
          },
          strict: false,
          skills: ["./local-ai"],
        },
        { name: "whole", source: { source: "url", url: daemon.url("whole") } },
        { name: "from-npm", source: { source: "npm", package: "@someone/plugin" } },
        { name: "on-disk", source: { source: "url", url: skills.fileUrl } },
      ],
    }),
    "plugins/local/commands/hi.md": "Hi\n",
  });

  // The marketplace itself: its own plugins, and its question lists the others.
  const marketHooks = consenting();
  await env.manager().add({ source: market.fileUrl, scope: "global" }, marketHooks);
  const mq = marketHooks.asked[0] as QuestionOf<"pack-install">;
  assert.deepEqual(
    mq.plugins.map((p) => p.name),
    ["local"],
  );
  assert.deepEqual(
    mq.remote?.map((r) => [r.name, r.source]),
    [
      ["amd-skills", `${daemon.url("skills")}, folder skills, at ${pinned}`],
      ["whole", daemon.url("whole")],
      [
        "from-npm",
        'cannot be installed: its source is of kind "npm", which Islet cannot install (git only)',
      ],
      [
        "on-disk",
        `cannot be installed: its source ${skills.fileUrl} is not a repository on a server`,
      ],
    ],
  );
  const text = packInstallLines(mq).join("\n");
  assert.match(text, /Not part of this install: 4 plugins it lists from other repositories/);
  assert.match(text, /^ {4}whole — git:\/\/127\.0\.0\.1:\d+\/whole\.git$/m);
  assert.ok(
    env.warnings.some((w) =>
      /4 plugins listed from other repositories are not part of this pack: amd-skills, whole, from-npm, on-disk; install one as a pack of its own with islet plugins add claude-plugins --plugin NAME/.test(
        w,
      ),
    ),
    env.warnings.join("\n"),
  );

  // Picked from the source: a consent of its own, for its own source.
  const hooks = consenting();
  const amd = await env
    .manager()
    .add({ source: market.fileUrl, plugin: "amd-skills", scope: "global" }, hooks);
  const q = hooks.asked[0] as QuestionOf<"pack-install">;
  assert.equal(q.source, daemon.url("skills"));
  assert.equal(q.subpath, "skills");
  assert.equal(q.commit, pinned, "the commit the marketplace names, not the branch's head");
  assert.equal(q.listedBy, market.fileUrl);
  assert.match(packInstallLines(q)[0], /^The Claude Code marketplace file:.* lists it\.$/);
  assert.deepEqual(amd.plugins, ["amd-skills"]);
  assert.equal(amd.origin?.listedBy, market.fileUrl);
  assert.match(await readFile(path.join(amd.dir, ".origin.yaml"), "utf8"), /^claude_entry:$/m);

  // Picked by the installed marketplace's name.
  const w = await env
    .manager()
    .add({ source: "claude-plugins", plugin: "whole", scope: "global" }, consenting());
  assert.deepEqual(w.plugins, ["whole"]);
  assert.equal(w.origin?.url, daemon.url("whole"));

  const { found, lines, notes } = await claudeLoad(env);
  // A note for `islet plugins list`, not a line at every start.
  assert.deepEqual(notes, [
    `${path.join(env.globalPlugins, "claude-plugins", ".claude-plugin", "marketplace.json")}: 4 plugins listed from other repositories are not in this pack; install one with islet plugins add claude-plugins --plugin NAME`,
  ]);
  assert.ok(!lines.some((l) => l.includes("other repositories")), lines.join("\n"));
  const byName = new Map(found.map((p) => [p.name, p]));
  assert.deepEqual(
    byName.get("amd-skills")?.skills.map((s) => [s.name, s.description]),
    [["amd-skills:local-ai", "Local AI"]],
    "only the skills the entry lists, at the pinned commit",
  );
  assert.deepEqual(
    byName.get("whole")?.commands.map((c) => c.name),
    ["whole:hello"],
  );

  // Refused in one line each, nothing installed.
  await assert.rejects(
    env
      .manager()
      .add({ source: "claude-plugins", plugin: "from-npm", scope: "global" }, consenting()),
    /plugin "from-npm": its source is of kind "npm", which Islet cannot install \(git only\)/,
  );
  await assert.rejects(
    env
      .manager()
      .add({ source: "claude-plugins", plugin: "on-disk", scope: "global" }, consenting()),
    /plugin "on-disk": its source file:.* is not a repository on a server/,
  );
  await assert.rejects(
    env.manager().add({ source: "claude-plugins", plugin: "local", scope: "global" }, consenting()),
    /"local" is one of claude-plugins's own plugins and came with it: it is installed already/,
  );
  await assert.rejects(
    env.manager().add({ source: "claude-plugins", plugin: "nope", scope: "global" }, consenting()),
    /lists no plugin "nope" \(it lists local, amd-skills, whole, from-npm, on-disk\)/,
  );
});

test("--plugin NAME picks one of a marketplace's own plugins: only it is installed and loads, from the marketplace's repository", async () => {
  await using env = await packEnv();
  await repos.create("own-market", {
    ".claude-plugin/marketplace.json": json({
      name: "own-market",
      owner: { name: "someone" },
      plugins: [
        { name: "alpha", source: "./plugins/alpha" },
        // Without plugin.json: the entry says what it holds.
        { name: "beta", source: "./plugins/beta", strict: false, commands: ["./cmds/"] },
      ],
    }),
    "plugins/alpha/.claude-plugin/plugin.json": json({ name: "alpha" }),
    "plugins/alpha/commands/a.md": "Alpha\n",
    "plugins/beta/cmds/b.md": "Beta\n",
  });
  const hooks = consenting();
  const beta = await env
    .manager()
    .add({ source: daemon.url("own-market"), plugin: "beta", scope: "global" }, hooks);
  assert.equal(beta.name, "beta");
  assert.deepEqual(beta.plugins, ["beta"]);
  assert.equal(beta.origin?.url, daemon.url("own-market"));
  assert.equal(beta.origin?.subpath, "plugins/beta");
  const q = hooks.asked[0] as QuestionOf<"pack-install">;
  assert.deepEqual(
    q.plugins.map((p) => p.name),
    ["beta"],
  );

  const { found } = await claudeLoad(env);
  assert.deepEqual(
    found.map((p) => [p.name, p.commands.map((c) => c.name)]),
    [["beta", ["beta:b"]]],
    "only the plugin picked, with the parts its entry names",
  );

  // Another of its plugins, picked the same way, is a pack of its own beside it.
  const alpha = await env
    .manager()
    .add({ source: daemon.url("own-market"), plugin: "alpha", scope: "global" }, consenting());
  assert.deepEqual(alpha.plugins, ["alpha"]);
  const again = await claudeLoad(env);
  assert.deepEqual(again.found.map((p) => p.name).sort(), ["alpha", "beta"]);
});

test("a marketplace listing hundreds from other repositories names the first 20 at install, not all", async () => {
  await using env = await packEnv();
  const names = Array.from({ length: 25 }, (_, i) => `remote-${String(i).padStart(2, "0")}`);
  const market = await repos.create("many", {
    ".claude-plugin/marketplace.json": json({
      name: "many",
      plugins: [
        { name: "local", source: "./plugins/local" },
        ...names.map((name) => ({ name, source: { source: "github", repo: `someone/${name}` } })),
      ],
    }),
    "plugins/local/commands/hi.md": "Hi\n",
  });
  await env.manager().add({ source: market.fileUrl, scope: "global" }, consenting());
  const line = env.warnings.find((w) => w.includes("listed from other repositories"));
  assert.ok(
    line?.includes(
      `25 plugins listed from other repositories are not part of this pack: ${names.slice(0, 20).join(", ")} and 5 more (islet plugins search finds them);`,
    ),
    line,
  );
});
