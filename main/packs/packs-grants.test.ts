/**
 * What packs do with the grant store: remove forgets the grants of the pack's folders (so a
 * same-named plugin put there later asks again) and leaves other folders' grants alone; Claude Code
 * plugins' consent lists everything the runtime would run (hooks from every place the runtime
 * reads them, MCP servers with their arguments), nothing of theirs is loadable before consent, and
 * what was accepted is recorded so an update asks only about new commands.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { readClaudePlugin } from "../extensions/claude/plugin.ts";
import { packInstallLines } from "../host/pack-question-text.ts";
import type { QuestionKind, QuestionOf, QuestionPort } from "../host/questions.ts";
import { ConsentGate } from "../code-plugins/consent/gate.ts";
import { GrantStore } from "../code-plugins/consent/grants.ts";
import { loadPlugins } from "../code-plugins/loader/index.ts";
import { findPluginFolders } from "../code-plugins/loader/walk.ts";
import { gitRepos, pluginFiles, writeRepoFiles, type GitRepos } from "./testing/git-servers.ts";
import { consenting, packEnv, type PackEnv } from "./testing/pack-env.ts";

let repos: GitRepos;
before(async () => {
  repos = await gitRepos();
});
after(async () => {
  await repos.close();
});

const NETWORK = 'permissions:\n  network: [{ host: api.example.com, reason: "posts notes" }]\n';

async function grantsJson(env: PackEnv): Promise<Record<string, { name: string }>> {
  const text = await readFile(path.join(env.homes.global, "grants.json"), "utf8").catch(() => "");
  return text ? (JSON.parse(text) as { plugins: Record<string, { name: string }> }).plugins : {};
}

/** What the load-time gate decides for `name`, and the questions it asked. */
async function gateSees(env: PackEnv, name: string) {
  const asked: string[] = [];
  const port: QuestionPort = {
    ask: async <K extends QuestionKind>(question: QuestionOf<K>) => {
      asked.push(question.kind);
      return "deny" as never;
    },
  };
  const gate = new ConsentGate({
    globalHome: env.homes.global,
    questions: port,
    trustedProject: true,
    warn: () => undefined,
  });
  const load = await loadPlugins(env.homes, { trustedProject: true });
  await gate.decide(load.plugins);
  const status = gate.permissionsOf(name).map((s) => s.status);
  await gate.settle();
  return { status, asked };
}

test("remove forgets the grants of the pack's folders: a same-named plugin put there later is asked again", async () => {
  await using env = await packEnv();
  const repo = await repos.create("netpack", {
    ...pluginFiles("net", { yaml: NETWORK }),
    ...pluginFiles("other", { yaml: NETWORK }),
  });
  const manager = env.manager();
  const pack = await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  assert.deepEqual((await gateSees(env, "net")).status, ["granted"]);
  // A grant of a plugin of the same name in another folder is that folder's, and stays.
  const elsewhere = path.join(env.root, "elsewhere", "net");
  await new GrantStore(env.homes.global, () => undefined).record(elsewhere, {
    name: "net",
    hash: "h",
    granted: ["network:api.example.com"],
  });

  await manager.remove("netpack");
  assert.deepEqual(
    Object.entries(await grantsJson(env)).map(([key, g]) => [key, g.name]),
    [[elsewhere, "net"]],
    "only the other folder's grant is left",
  );

  // Someone puts a plugin of the same name and request into the same folder by hand.
  await writeRepoFiles(pack.dir, pluginFiles("net", { yaml: NETWORK }));
  const seen = await gateSees(env, "net");
  assert.deepEqual(seen.status, ["pending"], "it inherits nothing");
  assert.deepEqual(seen.asked, ["permissions"]);
});

test("an update that drops a plugin forgets that plugin's grants", async () => {
  await using env = await packEnv();
  const repo = await repos.create("shrinking", {
    ...pluginFiles("stays", { yaml: NETWORK }),
    ...pluginFiles("goes", { yaml: NETWORK }),
  });
  const manager = env.manager();
  const pack = await manager.add({ source: repo.fileUrl, scope: "global" }, consenting());
  await repo.commit("Drop goes", { "goes/plugin.yaml": null, "goes/index.ts": null });
  const out = await manager.update("shrinking", consenting());
  assert.equal(out.changed, true);
  assert.deepEqual(
    Object.values(await grantsJson(env)).map((g) => g.name),
    ["stays"],
  );
  await writeRepoFiles(pack.dir, pluginFiles("goes", { yaml: NETWORK }));
  assert.deepEqual((await gateSees(env, "goes")).status, ["pending"]);
});

const hookGroup = (command: string) => [{ hooks: [{ type: "command", command }] }];

test("Claude Code plugins: consent lists every hook and MCP server the runtime would run, before anything is loadable; an update asks only about new ones; remove forgets them", async () => {
  await using env = await packEnv();
  const repo = await repos.create("claude-runner", {
    "runner/.claude-plugin/plugin.json": JSON.stringify({
      name: "runner",
      hooks: ["./extra/hooks.json", { hooks: { Stop: hookGroup("./bin/on-stop.sh") } }],
      mcpServers: { db: { command: "node", args: ["${CLAUDE_PLUGIN_ROOT}/db.js", "--ro"] } },
    }),
    "runner/hooks/hooks.json": JSON.stringify({ hooks: { PreToolUse: hookGroup("./check.sh") } }),
    "runner/extra/hooks.json": JSON.stringify({ hooks: { SessionStart: hookGroup("./greet.sh") } }),
    "runner/.mcp.json": JSON.stringify({
      mcpServers: {
        files: { command: "npx", args: ["-y", "some-mcp-server"] },
        remote: { type: "http", url: "https://mcp.example.com/mcp" },
      },
    }),
  });
  const manager = env.manager();
  let loadableDuringConsent: string[] | undefined;
  const hooks = consenting(true, {
    consent: async (q) => {
      hooks.asked.push(q);
      const walked = await findPluginFolders(env.globalPlugins);
      loadableDuringConsent = walked.claudeFolders.map((d) => path.basename(d));
      return true;
    },
  });
  const pack = await manager.add({ source: repo.fileUrl, scope: "global" }, hooks);
  assert.deepEqual(loadableDuringConsent, [], "nothing of the pack is loadable while it asks");
  const listed = hooks.asked[0].plugins.find((p) => p.name === "runner")?.permissions ?? [];
  const targets = listed.map((i) => i.target).sort();
  assert.deepEqual(
    targets,
    [
      "./bin/on-stop.sh",
      "./check.sh",
      "./greet.sh",
      "node ${CLAUDE_PLUGIN_ROOT}/db.js --ro",
      "npx -y some-mcp-server",
      "https://mcp.example.com/mcp",
    ].sort(),
  );
  // The terminal prompt shows each command whole.
  const q0 = hooks.asked[0];
  assert.equal(q0.kind, "pack-install");
  const lines = q0.kind === "pack-install" ? packInstallLines(q0).join("\n") : "";
  assert.match(lines, /run the command `npx -y some-mcp-server` — MCP server/);
  assert.match(lines, /run the command `\.\/check\.sh` — Claude Code PreToolUse hook/);
  // Exactly what the runtime reads from the installed folder.
  const runtime = readClaudePlugin(path.join(pack.dir, "runner"), {
    scope: "global",
    heldBack: false,
  });
  assert.equal(runtime.hooks.length + runtime.mcpServers.length, listed.length);

  await repo.commit("Another hook", {
    "runner/hooks/hooks.json": JSON.stringify({
      hooks: { PreToolUse: hookGroup("./check.sh"), PostToolUse: hookGroup("./format.sh") },
    }),
  });
  const upd = consenting();
  await manager.update("claude-runner", upd);
  const q = upd.asked[0];
  assert.equal(q.kind, "pack-update");
  assert.deepEqual(
    q.plugins.find((p) => p.name === "runner")?.permissions.map((i) => i.target),
    ["./format.sh"],
    "only the new command is asked about",
  );

  await manager.remove("claude-runner");
  assert.deepEqual(await grantsJson(env), {});
});
