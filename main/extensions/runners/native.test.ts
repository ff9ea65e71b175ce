import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { Contributions } from "../../contributions/contributions.ts";
import { activated, alive, call, runnerWorld } from "./testing.ts";

const ECHO = `#!/bin/sh
for a in "$@"; do printf 'arg=[%s]\\n' "$a"; done
printf 'stdin=%s\\n' "$(cat)"
echo "warned" >&2
exit 3
`;

/** Writes its own pid and its child's, then waits for the child (a tree of two). */
const TREE = `#!/bin/sh
sleep 300 &
echo "$$ $!" > "$1"
wait
`;

async function waitFor(file: string): Promise<number[]> {
  for (let i = 0; i < 600; i++) {
    const text = await readFile(file, "utf8").catch(() => "");
    if (text.trim().split(" ").length === 2) return text.trim().split(" ").map(Number);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${file} never appeared`);
}

test("a native runner plugin's tool: JSON on stdin, args as argv, output and exit code back", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const dir = path.join(w.homes.global, "plugins", "echoer");
  await w.script(path.join(dir, "tool.sh"), ECHO);
  await w.plugin("echoer", {
    description: "Echoes what it gets.",
    command: "{plugin_dir}/tool.sh --fixed",
    runner: "native",
  });
  const { plugin, tool } = await activated(w.source(), "echoer");
  assert.equal(plugin.kind, "runner");
  assert.match(plugin.consentDetails[0], /runs `.*tool\.sh --fixed` natively in /);

  const result = await call(tool, { args: ["one", "two words"], input: { x: 1 } }, w.homes.workdir);
  assert.equal(result.error, true, "exit code 3 is a failed call");
  assert.equal(
    result.output,
    [
      "arg=[--fixed]",
      "arg=[one]",
      "arg=[two words]",
      'stdin={"args":["one","two words"],"input":{"x":1}}',
      "[stderr]",
      "warned",
      "[exit code 3]",
    ].join("\n"),
  );
  const bad = await call(tool, { args: "not a list" }, w.homes.workdir);
  assert.match(bad.output, /Invalid arguments for echoer: "args" must be array/);
});

test("a runner tool's output is cut like built-in tools' output", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  await w.script("flood.sh", "#!/bin/sh\nhead -c 200000 /dev/zero | tr '\\0' a\necho END\n");
  await w.plugin("flood", {
    description: "Prints a lot.",
    command: [path.join(w.root, "flood.sh")],
    runner: "native",
  });
  const { tool } = await activated(w.source(), "flood");
  const result = await call(tool, {}, w.homes.workdir);
  assert.equal(result.error, false);
  assert.ok(result.output.length < 30_200, `output is ${result.output.length} chars`);
  assert.match(result.output, /chars truncated/);
  assert.match(result.output, /END\n\[exit code 0\]$/);
});

test("the manifest's timeout stops the command and everything it started", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const pids = path.join(w.root, "pids");
  await w.script("tree.sh", TREE);
  await w.plugin("slow", {
    description: "Never finishes.",
    command: [path.join(w.root, "tree.sh"), pids],
    runner: "native",
    timeout_seconds: 5,
  });
  const { tool } = await activated(w.source(), "slow");
  const result = await call(tool, {}, w.homes.workdir);
  assert.equal(result.error, true);
  assert.match(result.output, /timed out after 5 s/);
  const [shell, sleeper] = await waitFor(pids);
  assert.equal(alive(shell), false, "the script is gone");
  assert.equal(alive(sleeper), false, "the process it started is gone");
});

test("deactivating a runner plugin stops its running calls' process trees", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const pids = path.join(w.root, "pids");
  await w.script("tree.sh", TREE);
  await w.plugin("slow", {
    description: "Never finishes.",
    command: [path.join(w.root, "tree.sh"), pids],
    runner: "native",
  });
  const { plugin, tool } = await activated(w.source(), "slow");
  const running = call(tool, {}, w.homes.workdir);
  const [shell, sleeper] = await waitFor(pids);
  assert.equal(alive(sleeper), true);
  await plugin.deactivate();
  assert.equal(alive(shell), false, "deactivate waits until the script is gone");
  assert.equal(alive(sleeper), false, "and what it started");
  const result = await running;
  assert.equal(result.error, true);
  assert.match(result.output, /stopped: the plugin was deactivated/);
});

test("an answer in the CLI tool protocol ({success, content} on stdout) is the result", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  // Seed 001's github wrapper: the action arrives on stdin, the answer leaves on stdout.
  await w.script(
    "gh.sh",
    `#!/bin/sh
input=$(cat)
case "$input" in
  *issues.list*) echo '{"success": true, "content": "Issue #1: Fix keyring"}';;
  *) echo '{"success": false, "error": "unknown action"}';;
esac
`,
  );
  await w.plugin("github", {
    description: "GitHub CLI operations.",
    command: [path.join(w.root, "gh.sh")],
    runner: "native",
    parameters: {
      type: "object",
      properties: { action: { type: "string", enum: ["issues.list", "pr.list"] } },
      required: ["action"],
    },
  });
  const { tool } = await activated(w.source(), "github");
  assert.deepEqual(tool.parameters.required, ["action"]);
  const ok = await call(tool, { action: "issues.list" }, w.homes.workdir);
  assert.deepEqual([ok.output, ok.error], ["Issue #1: Fix keyring", false]);
  const failed = await call(tool, { action: "pr.list" }, w.homes.workdir);
  assert.deepEqual([failed.output, failed.error], ["unknown action", true]);
  const invalid = await call(tool, { action: "repos.delete" }, w.homes.workdir);
  assert.match(invalid.output, /^Invalid arguments for github: "action" must be equal to one of/);
});

test("auto-discovery runs once, at activation, and its output is in the tool's description", async (t) => {
  const w = await runnerWorld();
  t.after(() => w.cleanup());
  const count = path.join(w.root, "count");
  await w.script(
    "cli.sh",
    `#!/bin/sh\n[ "$1" = --help ] && { echo x >> '${count}'; echo "usage: cli [--fast]"; exit 0; }\necho ran\n`,
  );
  await w.plugin("cli", {
    description: "A CLI.",
    command: [path.join(w.root, "cli.sh")],
    runner: "native",
    auto_discovery: [{ arg: "--help", description: "its options" }],
  });
  const { plugin, tool } = await activated(w.source(), "cli");
  assert.match(
    tool.description,
    /What `.*cli\.sh --help` printed \(its options\):\nusage: cli \[--fast\]$/,
  );
  assert.match(plugin.consentDetails.at(-1) ?? "", /^runs `.*cli\.sh --help` once at activation$/);
  await plugin.deactivate();
  // The registry disposes the old scope on deactivation; a fresh one stands in for it here.
  const again = new Contributions();
  await plugin.activate(again.registrar());
  assert.equal(again.tools.get("cli")?.description, tool.description);
  assert.equal(await readFile(count, "utf8"), "x\n", "--help ran once");
});
