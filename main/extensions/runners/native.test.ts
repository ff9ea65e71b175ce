import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
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
