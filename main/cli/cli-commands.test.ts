/** `islet tools|sessions|plugins` end to end, as a person runs them. */
import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { startFakeOpenAI } from "../providers/testing/index.ts";
import { islet, tempDirs } from "./testing/islet.ts";

test("islet tools lists, shows a schema and runs a tool directly", async () => {
  const dirs = await tempDirs();
  try {
    await writeFile(path.join(dirs.workdir, "a.txt"), "one\ntwo\n");
    const list = await islet(["tools", "--home", dirs.home, "--workdir", dirs.workdir]);
    assert.equal(list.code, 0);
    for (const name of [
      "Read",
      "Write",
      "Patch",
      "Bash",
      "Glob",
      "Grep",
      "Ls",
      "TodoWrite",
      "Done",
    ])
      assert.match(list.stdout, new RegExp(`^${name} `, "m"));
    const schema = await islet(["tools", "Read", "--home", dirs.home]);
    assert.equal(
      (JSON.parse(schema.stdout) as { parameters: { required: string[] } }).parameters.required[0],
      "path",
    );
    const read = await islet([
      "tools",
      "Read",
      "path=a.txt",
      "--workdir",
      dirs.workdir,
      "--home",
      dirs.home,
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /two/);
    const write = await islet([
      "tools",
      "Write",
      '{"path":"b.txt","content":"made"}',
      "--workdir",
      dirs.workdir,
      "--home",
      dirs.home,
    ]);
    assert.equal(write.code, 0, write.stderr);
    assert.equal(await readFile(path.join(dirs.workdir, "b.txt"), "utf8"), "made");
    const bad = await islet([
      "tools",
      "Read",
      "nope=1",
      "--workdir",
      dirs.workdir,
      "--home",
      dirs.home,
    ]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /nope/);
  } finally {
    await dirs.clean();
  }
});

test("islet sessions list, show, export, rename and delete", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([{ text: ["Answer one."] }]);
  try {
    const ran = await islet([
      "run",
      "--json",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.url,
      "--model",
      "m",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "First question",
    ]);
    const id = String(
      (JSON.parse(ran.stdout.trim().split("\n").at(-1)!) as { sessionId: string }).sessionId,
    );
    const list = await islet(["sessions", "list", "--json", "--home", dirs.home]);
    const rows = JSON.parse(list.stdout) as { id: string; title: string; messageCount: number }[];
    assert.deepEqual(
      rows.map((r) => [r.id, r.title, r.messageCount]),
      [[id, "First question", 2]],
    );
    const md = await islet(["sessions", "export", id.slice(0, 17), "--home", dirs.home]);
    assert.match(md.stdout, /First question/);
    assert.match(md.stdout, /Answer one\./);
    const out = path.join(dirs.root, "s.json");
    await islet(["sessions", "export", id, "--output", out, "--home", dirs.home]);
    assert.equal(
      (JSON.parse(await readFile(out, "utf8")) as { messages: unknown[] }).messages.length,
      2,
    );
    assert.equal(
      (await islet(["sessions", "rename", id, "Better", "title", "--home", dirs.home])).code,
      0,
    );
    assert.match((await islet(["sessions", "list", "--home", dirs.home])).stdout, /Better title/);
    assert.equal((await islet(["sessions", "delete", id, "--home", dirs.home])).code, 0);
    assert.match(
      (await islet(["sessions", "list", "--home", dirs.home])).stdout,
      /No sessions yet/,
    );
    const missing = await islet(["sessions", "show", "nope", "--home", dirs.home]);
    assert.equal(missing.code, 1);
  } finally {
    await server.close();
    await dirs.clean();
  }
});

test("islet plugins list|show and plugin tools through islet tools", async () => {
  const dirs = await tempDirs();
  try {
    const plugin = path.join(dirs.home, "plugins", "tools", "greeter");
    await mkdir(plugin, { recursive: true });
    await writeFile(
      path.join(plugin, "plugin.yaml"),
      'description: "Greets"\ncondition: "turns_gt:0"\n',
    );
    await writeFile(
      path.join(plugin, "index.ts"),
      `export function beforeChat() {}
       export function schema() { return { name: "Greet", description: "Greets", parameters: { type: "object", properties: { who: { type: "string" } }, required: ["who"] } }; }
       export function execute(ctx, args) { return "Hello, " + args.who + "!"; }`,
    );
    const broken = path.join(dirs.home, "plugins", "broken");
    await mkdir(broken, { recursive: true });
    await writeFile(path.join(broken, "plugin.yaml"), "once: yes-please\n");
    await writeFile(path.join(broken, "index.ts"), "export function beforeChat() {}");

    const list = await islet([
      "plugins",
      "list",
      "--json",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ]);
    assert.equal(list.code, 0, list.stderr);
    const parsed = JSON.parse(list.stdout) as {
      plugins: {
        name: string;
        status: string;
        hooks: string[];
        tool: { name: string } | null;
        condition: string;
      }[];
      problems: { file: string; message: string }[];
      backend: { name: string; reason: string };
    };
    assert.deepEqual(parsed.backend, {
      name: "isolated-vm",
      reason: "isolated-vm is the default under Node",
    });
    assert.deepEqual(
      parsed.plugins.map((p) => [p.name, p.status, p.hooks, p.tool?.name, p.condition]),
      [["greeter", "active", ["beforeChat"], "Greet", "turns_gt:0"]],
    );
    assert.match(parsed.problems[0].file, /broken\/plugin\.yaml$/);
    assert.match(parsed.problems[0].message, /once/);

    const text = await islet(["plugins", "list", "--home", dirs.home, "--workdir", dirs.workdir]);
    assert.match(
      text.stdout,
      /BeforeChat:\n {2}greeter\/BeforeChat\s+enabled condition="turns_gt:0"/,
    );
    const show = await islet([
      "plugins",
      "show",
      "greeter",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ]);
    assert.match(show.stdout, /Tool: {8}Greet/);
    const quick = await islet([
      "plugins",
      "show",
      "greeter",
      "--plugin-runtime",
      "quickjs",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ]);
    assert.match(quick.stdout, /Sandbox: {5}quickjs \(chosen by --plugin-runtime\)/);
    const run = await islet([
      "tools",
      "Greet",
      "who=Ann",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ]);
    assert.equal(run.stdout, "Hello, Ann!\n");
    const without = await islet([
      "tools",
      "Greet",
      "who=Ann",
      "--without-plugins",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
    ]);
    assert.equal(without.code, 2);
  } finally {
    await dirs.clean();
  }
});
