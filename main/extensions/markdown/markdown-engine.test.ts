/** Custom commands and skills through the engine, against a loopback model server. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { CommandRegistry } from "../../commands/registry.ts";
import { createEngine } from "../../engine/bootstrap.ts";
import { YES_FOR_THIS_RUN } from "../../host/questions.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";
import type { FakeServer } from "../../providers/testing/index.ts";
import { registerMarkdownCommands } from "./command.ts";
import { Contributions } from "../../contributions/contributions.ts";
import type { MarkdownCommand } from "./commands.ts";
import { formatProblem } from "../../host/problem.ts";

interface Body {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string } }[];
}
const body = (srv: FakeServer, i: number): Body => srv.chatRequests[i].body as Body;
const toolNames = (b: Body): string[] => (b.tools ?? []).map((t) => t.function.name);
const text = (b: Body): string => JSON.stringify(b.messages);

async function setup(files: Record<string, string>) {
  const root = await mkdtemp(path.join(tmpdir(), "islet-mdengine-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  for (const [rel, t] of Object.entries({ ...files, "work/README.md": "# Demo readme\n" })) {
    await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await writeFile(path.join(root, rel), t);
  }
  return { root, home, workdir, clean: () => rm(root, { recursive: true, force: true }) };
}

async function engineFor(h: { home: string; workdir: string }, srv: FakeServer, yes: boolean) {
  await mkdir(path.join(h.home, "config"), { recursive: true });
  await writeFile(
    path.join(h.home, "config", "providers.yaml"),
    `default: { provider: main, model: m }\nproviders:\n  main: { type: openai-compatible, base_url: ${srv.url} }\n`,
  );
  const warnings: string[] = [];
  const engine = await createEngine({
    home: h.home,
    workdir: h.workdir,
    env: {},
    questions: yes ? YES_FOR_THIS_RUN : undefined,
    warn: (p) => warnings.push(formatProblem(p)),
  });
  return { engine, warnings };
}

test("a custom command: arguments, !`cmd` through approval, @file, every tool still offered, its model", async () => {
  const h = await setup({
    "home/config/commands/review.md":
      "---\ndescription: Review\nargument-hint: <topic>\nallowed-tools: Read, Grep\nmodel: small-model\n---\nReview $ARGUMENTS. Branch: !`echo on-main`\nSee @README.md\n",
    "work/.islet/config/commands/local.md": "Project command.",
  });
  const srv = await startFakeOpenAI([{ text: ["ok"] }, { text: ["after"] }]);
  try {
    const { engine, warnings } = await engineFor(h, srv, true);
    assert.deepEqual(warnings, []);
    const listed = engine.commands.list().map((c) => [c.name, c.hints, c.source]);
    assert.deepEqual(
      listed.filter(([n]) => n === "review" || n === "local"),
      [
        ["local", undefined, "custom"],
        ["review", "<topic>", "custom"],
      ],
    );
    const conv = await engine.open({ emit: () => {} });
    const r = await conv.submit("/review the parser");
    assert.equal(r.kind === "command" && r.outcome?.text, "ok");
    const sent = body(srv, 0);
    assert.match(text(sent), /Review the parser\. Branch: on-main/);
    assert.match(text(sent), /<file path=\\"README.md\\">\\n# Demo readme/);
    // allowed-tools pre-approves Read and Grep; as in Claude Code it takes no tool away.
    assert.ok(["Grep", "Read", "Bash", "Patch"].every((t) => toolNames(sent).includes(t)));
    assert.equal((srv.chatRequests[0].body as { model: string }).model, "small-model");
    // The limit and the model are the command's turn only.
    await conv.submit("and now?");
    assert.ok(toolNames(body(srv, 1)).includes("Bash"));
    assert.equal((srv.chatRequests[1].body as { model: string }).model, "m");
    await conv.close();
    await engine.close();
  } finally {
    await srv.close();
    await h.clean();
  }
});

test("a !`cmd` line nobody approves is not run and nothing is sent", async () => {
  const h = await setup({
    "home/config/commands/danger.md": "Result: !`touch ran.txt`",
  });
  const srv = await startFakeOpenAI([{ text: ["never"] }]);
  try {
    const { engine } = await engineFor(h, srv, false);
    const conv = await engine.open({ emit: () => {} });
    await assert.rejects(conv.submit("/danger"), /was not run: Bash needs approval/);
    assert.equal(srv.chatRequests.length, 0);
    await assert.rejects(
      import("node:fs/promises").then((f) => f.stat(path.join(h.workdir, "ran.txt"))),
    );
    await engine.close();
  } finally {
    await srv.close();
    await h.clean();
  }
});

test("skills: listed by name and description only; the Skill tool loads the body and lists its files; /NAME runs one with them", async () => {
  const h = await setup({
    "home/skills/pdf/SKILL.md":
      "---\ndescription: Work with PDF files\nallowed-tools: Read\n---\nSECRET-BODY: use pdftotext on $ARGUMENTS.\n",
    "home/skills/pdf/reference.md": "ref",
    "home/skills/pdf/scripts/fill.py": "print(1)",
    "home/skills/no-shell.md": "---\ndisallowed-tools: Bash, Write\n---\nNo shell here.",
    "home/skills/model-only.md": "---\nuser-invocable: false\n---\nFor the model.",
  });
  const srv = await startFakeOpenAI([
    { toolCalls: [{ name: "Skill", arguments: { skill: "pdf", args: "a.pdf" } }] },
    { text: ["loaded"] },
    { text: ["ran"] },
    { text: ["no shell"] },
  ]);
  try {
    const { engine } = await engineFor(h, srv, false);
    const conv = await engine.open({ emit: () => {} });
    await conv.submit("read my pdf");
    const first = srv.chatRequests[0].raw;
    assert.match(first, /- pdf: Work with PDF files/);
    assert.doesNotMatch(first, /SECRET-BODY/, "the body loads only on demand");
    // Nobody to ask (no --yes): loading a skill needs no approval.
    const second = text(body(srv, 1));
    assert.match(second, /SECRET-BODY: use pdftotext on a\.pdf\./);
    assert.match(second, /- reference\.md\\n- scripts\/fill\.py/);
    await conv.submit("/pdf b.pdf");
    const third = body(srv, 2);
    assert.match(text(third), /SECRET-BODY: use pdftotext on b\.pdf\./);
    // `/NAME` tells the model where the skill's files are, as the Skill tool does.
    const sent = third.messages.filter((m) => m.role === "user").at(-1)?.content;
    assert.match(
      String(sent),
      /^SECRET-BODY[^]*Files in the skill's folder \S*skills\/pdf .*\n- reference\.md\n- scripts\/fill\.py$/,
    );
    assert.ok(toolNames(third).includes("Read") && toolNames(third).includes("Bash"));
    await conv.submit("/no-shell");
    const fourth = toolNames(body(srv, 3));
    assert.ok(fourth.includes("Read") && !fourth.includes("Bash") && !fourth.includes("Write"));
    await assert.rejects(conv.submit("/model-only"), /is for the model only/);
    assert.equal(srv.chatRequests.length, 4);
    await engine.close();
  } finally {
    await srv.close();
    await h.clean();
  }
});

test("namespaced commands: the bare name serves while unique; two plugins' bare name asks for the full one", async () => {
  const c = new Contributions();
  const md = (ns: string): MarkdownCommand => ({
    name: `${ns}:deploy`,
    bareName: "deploy",
    namespace: ns,
    description: ns,
    forward: false,
    body: `deploy by ${ns}`,
    file: `/p/${ns}/commands/deploy.md`,
    label: "",
  });
  const a = c.registrar().scope();
  registerMarkdownCommands(a, [md("alpha")], { source: "plugin", plugin: "alpha" });
  assert.equal(c.commands.get("deploy")?.description, "alpha");
  const b = c.registrar().scope();
  registerMarkdownCommands(b, [md("beta")], { source: "plugin", plugin: "beta" });
  assert.equal(c.commands.get("beta:deploy")?.description, "beta");
  await assert.rejects(
    c.commands.get("deploy")!.run("", {} as never),
    /\/deploy is ambiguous: .*type \/alpha:deploy or \/beta:deploy/,
  );
  assert.deepEqual(
    c.commands.list().map((x) => x.name),
    ["alpha:deploy", "beta:deploy"],
  );
  b.dispose();
  assert.equal(c.commands.get("deploy")?.description, "alpha");
  assert.ok(new CommandRegistry().version === 0);
});

test("reloadMarkdown: commands and skills added, edited or removed on disk serve without a restart", async () => {
  const h = await setup({ "home/config/commands/old.md": "Old." });
  const srv = await startFakeOpenAI([]);
  try {
    const { engine } = await engineFor(h, srv, false);
    assert.ok(engine.commands.get("old"));
    await rm(path.join(h.home, "config", "commands", "old.md"));
    await writeFile(
      path.join(h.home, "config", "commands", "new.md"),
      "---\ndescription: New\n---\nNew.",
    );
    await mkdir(path.join(h.home, "skills"), { recursive: true });
    await writeFile(path.join(h.home, "skills", "fresh.md"), "---\ndescription: Fresh\n---\nx");
    engine.reloadMarkdown();
    assert.equal(engine.commands.get("old"), undefined);
    assert.equal(engine.commands.get("new")?.description, "New");
    assert.match(engine.extensions.promptFragments.texts().join("\n"), /- fresh: Fresh/);
    assert.ok(engine.commands.get("help"), "built-ins stay");
    await engine.close();
  } finally {
    await srv.close();
    await h.clean();
  }
});
