/** The CLI end to end: a real `islet` process against loopback servers speaking real protocols. */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { startFakeOllama, startFakeOpenAI } from "../providers/testing/index.ts";
import { SessionStore } from "../sessions/store.ts";

const BIN = fileURLToPath(new URL("../../bin/islet.js", import.meta.url));
const PRELOAD = fileURLToPath(new URL("./testing/record-connections.mjs", import.meta.url));

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function islet(
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--no-node-snapshot", ...nodeArgs, BIN, ...args],
      { env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === "number" ? code : 1, stdout, stderr });
      },
    );
  });
}

async function tempDirs() {
  const root = await mkdtemp(path.join(tmpdir(), "islet-cli-"));
  return {
    root,
    home: path.join(root, "home"),
    workdir: root,
    clean: () => rm(root, { recursive: true, force: true }),
  };
}

test("islet run --json: a tool round trip, the JSONL events and the saved session", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([
    {
      text: ["Let me look."],
      toolCalls: [{ name: "Read", arguments: { path: "notes.txt" } }],
      usage: { input: 120, output: 9 },
    },
    { text: ["The note says ", "hello."], usage: { input: 160, output: 5 } },
  ]);
  try {
    await writeFile(path.join(dirs.workdir, "notes.txt"), "hello\n");
    const ran = await islet([
      "run",
      "--json",
      "--provider",
      "openai-compatible",
      "--base-url",
      server.url,
      "--model",
      "m",
      "--yes",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "What",
      "does",
      "notes.txt",
      "say?",
    ]);
    assert.equal(ran.code, 0, ran.stderr);
    const events = ran.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const types = events.map((e) => e.type);
    assert.deepEqual(
      [...new Set(types)],
      ["assistant_delta", "assistant", "tool_call", "tool_result", "done"],
    );
    assert.equal(types.at(-1), "done");
    const call = events.find((e) => e.type === "tool_call")!;
    assert.equal(call.name, "Read");
    assert.deepEqual(call.arguments, { path: "notes.txt" });
    const result = events.find((e) => e.type === "tool_result")!;
    assert.equal(result.name, "Read");
    assert.equal(result.error, false);
    assert.match(String(result.output), /hello/);
    assert.equal(typeof result.durationMs, "number");
    const finals = events.filter((e) => e.type === "assistant").map((e) => e.text);
    assert.deepEqual(finals, ["Let me look.", "The note says hello."]);
    const done = events.at(-1)!;
    const stats = done.stats as {
      turns: number;
      tools: { calls: number };
      tokens: { in: number; out: number };
    };
    assert.equal(stats.turns, 2);
    assert.equal(stats.tools.calls, 1);
    assert.deepEqual(stats.tokens, { in: 280, out: 14 });

    // The model received the tool result.
    const second = server.chatRequests[1].body as {
      model: string;
      messages: { role: string; content: string }[];
    };
    assert.equal(second.model, "m");
    assert.match(second.messages.find((m) => m.role === "tool")!.content, /hello/);

    // The session was saved under the global home with everything in order.
    const store = SessionStore.forHome(dirs.home);
    const saved = await store.load(String(done.sessionId));
    assert.deepEqual(
      saved.messages.map((m) => m.role),
      ["user", "assistant", "tool", "assistant"],
    );
    assert.equal(saved.messages[0].content, "What does notes.txt say?");
    assert.equal(saved.messages[3].content, "The note says hello.");
    assert.equal(saved.model, "m");
    assert.equal(saved.stats?.turns, 2);
    assert.deepEqual(saved.warnings, []);

    // Resuming continues the same conversation.
    server.push({ text: ["Still hello."] });
    const again = await islet([
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
      "--session",
      String(done.sessionId).slice(0, 18),
      "And now?",
    ]);
    assert.equal(again.code, 0, again.stderr);
    const resumed = server.chatRequests[2].body as { messages: { role: string }[] };
    assert.equal(resumed.messages.length, 1 + 4 + 1);
    assert.equal((await store.load(String(done.sessionId))).messages.length, 6);
  } finally {
    await server.close();
    await dirs.clean();
  }
});

test("a run against a local model connects to nothing but loopback", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOllama([
    { toolCalls: [{ name: "Ls", arguments: { path: "." } }] },
    { text: ["Done looking."] },
  ]);
  const netLog = path.join(dirs.root, "net.log");
  await writeFile(netLog, "");
  try {
    const ran = await islet(
      [
        "run",
        "--json",
        "--provider",
        "ollama",
        "--base-url",
        server.url,
        "--model",
        "fake:latest",
        "--yes",
        "--home",
        dirs.home,
        "--workdir",
        dirs.workdir,
        "look around",
      ],
      { ISLET_TEST_NET_LOG: netLog },
      ["--import", PRELOAD],
    );
    assert.equal(ran.code, 0, ran.stderr);
    assert.match(ran.stdout, /Done looking/);
    const entries = (await readFile(netLog, "utf8"))
      .trim()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { kind: string; host: string; port?: number });
    assert.ok(
      entries.some((e) => e.kind === "connect" && Number(e.port) === server.port),
      "the recorder saw the model connection",
    );
    const offMachine = entries.filter((e) => !["127.0.0.1", "::1", "localhost"].includes(e.host));
    assert.deepEqual(offMachine, []);
  } finally {
    await server.close();
    await dirs.clean();
  }
});

test("bad usage exits 2 with one line; run errors exit 1 with one line", async () => {
  const dirs = await tempDirs();
  const server = await startFakeOpenAI([{ error: { status: 401 } }]);
  try {
    const bad = await islet(["run", "--max-steps", "zero", "hi"]);
    assert.equal(bad.code, 2);
    assert.equal(bad.stderr.trim().split("\n").length, 1);
    assert.match(bad.stderr, /--max-steps: expected a positive whole number/);

    const unknown = await islet(["frobnicate"]);
    assert.equal(unknown.code, 2);

    const failed = await islet([
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
      "hi",
    ]);
    assert.equal(failed.code, 1);
    const events = failed.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; errorType?: string });
    assert.deepEqual(
      events.map((e) => e.type),
      ["error", "done"],
    );
    assert.equal(events[0].errorType, "auth");

    await writeFile(path.join(dirs.root, "providers.yaml"), "");
    const noConfig = await islet([
      "run",
      "--provider",
      "nope",
      "--home",
      dirs.home,
      "--workdir",
      dirs.workdir,
      "hi",
    ]);
    assert.equal(noConfig.code, 1);
    assert.equal(noConfig.stderr.trim().split("\n").length, 1, noConfig.stderr);
    assert.match(noConfig.stderr, /unknown provider "nope"/);
  } finally {
    await server.close();
    await dirs.clean();
  }
});

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
    };
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
