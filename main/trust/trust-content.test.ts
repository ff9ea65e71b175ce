/**
 * Attack: a folder is trusted, then a `git pull` changes what runs from it — a hook's script, an
 * MCP server's command. Trust stays per folder, but what runs from it was recorded when it was
 * trusted: the changed folder's parts are held back (one line says what changed and what to do)
 * until someone confirms, and the question lists the changes. Real shell hooks and real processes
 * started as MCP servers write markers; none appears before consent.
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { test } from "node:test";
import { createEngine } from "../engine/bootstrap.ts";
import { formatProblem } from "../host/problem.ts";
import type { Question, QuestionPort } from "../host/questions.ts";
import { tempDir, type TempDir } from "../code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../providers/testing/index.ts";
import { TrustStore } from "./store.ts";

/** A person who trusts the folder (and records each question), or nobody. */
function person(trustAnswer: "trust" | "deny"): { port: QuestionPort; asked: Question[] } {
  const asked: Question[] = [];
  const port = {
    ask: async (q: Question) => {
      asked.push(q);
      return q.kind === "workspace-trust" ? trustAnswer : "deny";
    },
  } as QuestionPort;
  return { port, asked };
}

async function open(dirs: TempDir, model: FakeServer, questions?: QuestionPort) {
  const warnings: string[] = [];
  const engine = await createEngine({
    home: dirs.path("home"),
    workdir: dirs.path("work"),
    env: { PATH: process.env.PATH ?? "" },
    flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
    questions,
    warn: (p) => warnings.push(formatProblem(p)),
  });
  return { engine, warnings };
}

const read = (file: string) => (existsSync(file) ? readFileSync(file, "utf8") : "");

async function until(what: () => boolean, ms = 30_000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (what()) return true;
    await sleep(50);
  }
  return what();
}

test("attack: a trusted folder's hook script changed after trust does not run until someone confirms it", async () => {
  const dirs = tempDir("islet-trust-hook-");
  const log = dirs.path("marks.log");
  const hooks = { hooks: { Stop: [{ hooks: [{ type: "command", command: "sh check.sh" }] }] } };
  dirs.write({
    "home/.keep": "",
    "work/.islet/config/hooks/check.json": JSON.stringify(hooks),
    "work/check.sh": `echo approved >> '${log}'\n`,
  });
  const model = await startFakeOpenAI(Array.from({ length: 4 }, () => ({ text: ["ok"] })));
  const turn = async (engine: Awaited<ReturnType<typeof open>>["engine"]) => {
    const conv = await engine.open({ emit: () => {} });
    await conv.submit("hi");
    await conv.close();
  };
  try {
    const first = person("trust");
    const trusting = await open(dirs, model, first.port);
    assert.equal(trusting.engine.trust.trusted, true);
    await turn(trusting.engine);
    await trusting.engine.close();
    assert.equal(read(log), "approved\n", "trusted: the hook ran");

    // The pull: the hook file is untouched, only the script it runs changes.
    writeFileSync(dirs.path("work/check.sh"), `echo swapped >> '${log}'\n`);
    const nobody = await open(dirs, model);
    try {
      assert.equal(nobody.engine.trust.trusted, false);
      assert.deepEqual(nobody.engine.declarative.shellHooks.files, [], "the hooks are held back");
      const line = nobody.warnings.find((w) => /changed since you trusted it/.test(w)) ?? "";
      assert.match(line, /check\.sh, run by hook in \.islet\/config\/hooks\/check\.json/);
      assert.match(line, /run at a terminal to confirm the changes, pass --yes for this run/);
      await turn(nobody.engine);
      assert.equal(read(log), "approved\n", "the swapped script did not run");
    } finally {
      await nobody.engine.close();
    }

    const asked = person("trust");
    const confirming = await open(dirs, model, asked.port);
    try {
      const q = asked.asked.find((x) => x.kind === "workspace-trust");
      assert.ok(q?.kind === "workspace-trust");
      assert.deepEqual(q.heldBack, [
        "changed since you trusted it: check.sh, run by hook in .islet/config/hooks/check.json (hooks.Stop.0.hooks.0.command): `sh check.sh`",
      ]);
      assert.equal(confirming.engine.trust.trusted, true);
      await turn(confirming.engine);
      assert.equal(read(log), "approved\nswapped\n", "confirmed: it runs");
    } finally {
      await confirming.engine.close();
    }

    const again = person("deny");
    const later = await open(dirs, model, again.port);
    assert.equal(later.engine.trust.trusted, true, "confirmed once, not asked again");
    assert.deepEqual(again.asked, []);
    await later.engine.close();
  } finally {
    await model.close();
    dirs.remove();
  }
});

test("attack: a trusted folder's .mcp.json command changed after trust starts no process until confirmed; a new hook is listed too", async () => {
  const dirs = tempDir("islet-trust-mcp-");
  const mark = dirs.path("started.log");
  const server = (word: string) =>
    JSON.stringify({
      mcpServers: {
        tool: { command: "sh", args: ["-c", `echo ${word} >> '${mark}'; exec sleep 60`] },
      },
    });
  dirs.write({ "home/.keep": "", "work/.mcp.json": server("approved") });
  // Trusted before what runs was recorded (an older record): the first start records it.
  await new TrustStore(dirs.path("home"), () => {}).record(dirs.path("work"), "trusted");
  const model = await startFakeOpenAI([]);
  try {
    const first = await open(dirs, model);
    const conv = await first.engine.open({ emit: () => {} });
    assert.ok(await until(() => read(mark) === "approved\n"), "trusted: the server started");
    await conv.close();
    await first.engine.close();

    writeFileSync(dirs.path("work/.mcp.json"), server("swapped"));
    dirs.write({
      "work/.islet/config/hooks/new.json": JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: "true" }] }] },
      }),
    });
    const refused = person("deny");
    const nobody = await open(dirs, model, refused.port);
    try {
      assert.equal(nobody.engine.trust.trusted, false);
      assert.deepEqual(nobody.engine.extensions.mcpServers.names(), []);
      const c = await nobody.engine.open({ emit: () => {} });
      await sleep(1500);
      await c.close();
      assert.equal(read(mark), "approved\n", "no process started for the changed command");
      const q = refused.asked.find((x) => x.kind === "workspace-trust");
      assert.ok(q?.kind === "workspace-trust");
      assert.deepEqual(q.heldBack, [
        "new since you trusted it: hook in .islet/config/hooks/new.json (hooks.Stop.0.hooks.0.command): `true`",
        `changed since you trusted it: MCP server in .mcp.json (mcpServers.tool.command) now runs \`sh -c echo swapped >> '${mark}'; exec sleep 60\` (was \`sh -c echo approved >> '${mark}'; exec sleep 60\`)`,
      ]);
      assert.ok(nobody.warnings.some((w) => /held back for this run; `islet trust add`/.test(w)));
    } finally {
      await nobody.engine.close();
    }

    const yes = person("trust");
    const confirmed = await open(dirs, model, yes.port);
    try {
      assert.deepEqual(confirmed.engine.extensions.mcpServers.names(), ["tool"]);
      const c = await confirmed.engine.open({ emit: () => {} });
      assert.ok(await until(() => read(mark) === "approved\nswapped\n"), "confirmed: it starts");
      await c.close();
    } finally {
      await confirmed.engine.close();
    }
  } finally {
    await model.close();
    dirs.remove();
  }
});

test("attack: a hook pulled into a trusted folder while the engine runs is held back live, with one line", async () => {
  const dirs = tempDir("islet-trust-live-");
  const log = dirs.path("marks.log");
  dirs.write({
    "home/.keep": "",
    "work/.islet/config/commands/deploy.md": "---\ndescription: Deploys\n---\nDeploy.",
  });
  const model = await startFakeOpenAI([{ text: ["ok"] }]);
  const first = person("trust");
  const { engine, warnings } = await open(dirs, model, first.port);
  try {
    assert.equal(engine.trust.trusted, true);
    await engine.watchHomes();
    dirs.write({
      "work/.islet/config/hooks/pulled.json": JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: `echo ran >> '${log}'` }] }] },
      }),
    });
    assert.ok(
      await until(() => !engine.trust.trusted),
      "the folder's parts are held back once the new hook is seen",
    );
    const hookScopes = () => engine.declarative.shellHooks.files.map((f) => f.scope);
    assert.deepEqual(hookScopes(), []);
    assert.equal(engine.commands.get("deploy"), undefined);
    assert.ok(
      warnings.some((w) =>
        /new since you trusted it: hook in \.islet\/config\/hooks\/pulled\.json/.test(w),
      ),
    );
    const conv = await engine.open({ emit: () => {} });
    await conv.submit("hi");
    await conv.close();
    assert.equal(read(log), "", "the pulled hook never ran");

    // Trusting it again (the app's Settings) confirms what runs now.
    assert.equal((await engine.setTrust(true)).trusted, true);
    assert.deepEqual(hookScopes(), ["project"]);
  } finally {
    await engine.close();
    await model.close();
    dirs.remove();
  }
});
