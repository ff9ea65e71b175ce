/**
 * A hook command that runs into its time limit twice in a row is not run again in that
 * conversation (the shape of `npx pkg@1.2.3 …` hooks offline, which cost a minute a tool call):
 * one that answers in between starts the count again, another conversation runs it again, and so
 * does the same one once it has ended.
 */
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { emptyContext } from "../../turn/hooks/testing.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { parseHooksFile } from "./config.ts";
import { ShellHookRegistry } from "./registry.ts";

describe("a hook command that keeps timing out", () => {
  let dirs: TempDir;
  let registry: ShellHookRegistry;
  before(() => {
    dirs = tempDir("islet-shell-streaks-");
    // Counts its runs, then answers at once only while the flag file is there.
    const parsed = parseHooksFile(
      "t.yaml",
      `
PreToolUse:
  - matcher: "*"
    hooks:
      - command: 'echo run >> "$CLAUDE_PROJECT_DIR/runs"; [ -f "$CLAUDE_PROJECT_DIR/fast" ] || sleep 300'
        timeout: 1
`,
    );
    assert.deepEqual(parsed.errors, []);
    registry = new ShellHookRegistry({
      hooks: parsed.hooks.map((spec) => ({ spec, origin: { label: "guard" } })),
      globalHome: dirs.path("home"),
    });
  });
  after(() => {
    registry.dispose();
    dirs.remove();
  });

  const runs = () => readFileSync(dirs.path("runs"), "utf8").split("\n").length - 1;
  async function call(session: string): Promise<string> {
    const [handler] = registry.handlers("beforeToolExecution");
    const base = emptyContext({ workdir: dirs.root });
    const inv = await handler!.invoke({
      ...base,
      session: { ...base.session, id: session },
      toolName: "Read",
      arguments: {},
    });
    if (inv.status === "error") return `error: ${inv.message}`;
    if (inv.status === "skipped") return `skipped: ${inv.reason}`;
    return inv.status;
  }

  it("is left out after two timeouts in a row, for that conversation only", async () => {
    assert.equal(await call("a"), "error: timed out after 1 s (stopped; the action goes on)");
    writeFileSync(dirs.path("fast"), "");
    assert.equal(await call("a"), "ok", "an answer starts the count again");
    rmSync(dirs.path("fast"));
    assert.equal(await call("a"), "error: timed out after 1 s (stopped; the action goes on)");
    assert.equal(
      await call("a"),
      "error: timed out after 1 s, 2 times in a row: not run again in this conversation (the action goes on)",
    );
    assert.equal(runs(), 4);
    const started = performance.now();
    assert.equal(
      await call("a"),
      "skipped: timed out 2 times in a row: not run again in this conversation",
    );
    assert.ok(performance.now() - started < 900, "no time limit waited out");
    assert.equal(runs(), 4, "the command did not run");

    assert.equal(await call("b"), "error: timed out after 1 s (stopped; the action goes on)");
    assert.equal(runs(), 5, "another conversation runs it");
  });

  it("runs again in a conversation that ended and was opened again", async () => {
    const before = runs();
    assert.match(await call("c"), /^error: timed out after 1 s \(stopped/);
    assert.match(await call("c"), /2 times in a row/);
    assert.match(await call("c"), /^skipped/);
    await registry.sessionEnd(
      { ...emptyContext({ workdir: dirs.root }), session: { id: "c", title: "" } },
      "other",
    );
    assert.match(await call("c"), /^error: timed out after 1 s \(stopped/);
    assert.equal(runs(), before + 3);
  });
});
