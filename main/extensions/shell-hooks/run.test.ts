/**
 * Shell hook handlers on their own, with real commands: a timed-out hook's whole process tree is
 * stopped and the action goes on; unloading stops a running hook; JSON decisions (deny, continue
 * false, systemMessage); SessionStart context once per session; PreCompact blocking; the
 * CLAUDE_PLUGIN_ROOT of a plugin's hooks.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { emptyContext } from "../../turn/hooks/testing.ts";
import type { HookContexts, HookInvocation, HookTiming } from "../../turn/hooks/types.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { parseHooksFile, type ShellHookOrigin } from "./config.ts";
import { ShellHookRegistry } from "./registry.ts";

function registry(yaml: string, origin: ShellHookOrigin = { label: "t.yaml" }): ShellHookRegistry {
  const parsed = parseHooksFile("t.yaml", yaml);
  assert.deepEqual(parsed.errors, []);
  return new ShellHookRegistry({
    hooks: parsed.hooks.map((spec) => ({ spec, origin })),
    globalHome: "/home/x/.islet",
  });
}

async function invokeAll<T extends HookTiming>(
  r: ShellHookRegistry,
  timing: T,
  ctx: HookContexts[T],
): Promise<HookInvocation<T>[]> {
  const out: HookInvocation<T>[] = [];
  for (const h of r.handlers(timing)) out.push(await h.invoke(ctx));
  return out;
}

/** Whether a process is still running (a zombie awaiting its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    return state !== "Z" && state !== "X";
  } catch {
    return false;
  }
}

describe("shell hook commands", () => {
  let dirs: TempDir;
  before(() => {
    dirs = tempDir("islet-shell-run-");
  });
  after(() => dirs.remove());

  it("stops a timed-out hook's whole process tree, and the tool call goes on", async () => {
    const r = registry(`
PreToolUse:
  - matcher: "*"
    hooks:
      - command: 'sleep 300 & echo $! > "$CLAUDE_PROJECT_DIR/bg.pid"; sleep 300'
        timeout: 1
`);
    const ctx = { ...emptyContext({ workdir: dirs.root }), toolName: "Read", arguments: {} };
    const [inv] = await invokeAll(r, "beforeToolExecution", ctx);
    assert.equal(inv.status, "error");
    assert.match(inv.status === "error" ? inv.message : "", /timed out after 1 s/);
    const bg = Number(readFileSync(dirs.path("bg.pid"), "utf8").trim());
    assert.ok(bg > 0);
    assert.equal(alive(bg), false, "the hook's background child was stopped with it");
  });

  it("stops a running hook when the hooks are unloaded", async () => {
    const r = registry(`
Stop:
  - hooks:
      - command: 'echo $$ > "$CLAUDE_PROJECT_DIR/stop.pid"; exec sleep 300'
`);
    const ctx = { ...emptyContext({ workdir: dirs.root }), content: "", thinking: "", calls: [] };
    const running = invokeAll(r, "afterResponse", ctx);
    const deadline = Date.now() + 30_000;
    let pid = 0;
    while (!pid && Date.now() < deadline) {
      await new Promise((res) => setTimeout(res, 50));
      try {
        pid = Number(readFileSync(dirs.path("stop.pid"), "utf8").trim());
      } catch {
        // not started yet
      }
    }
    r.dispose();
    const [inv] = await running;
    assert.equal(inv.status, "error");
    assert.equal(alive(pid), false);
  });

  it("reads JSON decisions: deny blocks with its reason, continue:false blocks and ends the turn, systemMessage is shown", async () => {
    const r = registry(`
PreToolUse:
  - matcher: Write
    hooks:
      - command: >-
          echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"not in prod"}}'
  - matcher: Bash
    hooks:
      - command: echo '{"continue":false,"stopReason":"maintenance window"}'
  - matcher: Read
    hooks:
      - command: echo '{"systemMessage":"reading is logged"}'
`);
    const call = async (toolName: string) =>
      (
        await invokeAll(r, "beforeToolExecution", {
          ...emptyContext({ workdir: dirs.root }),
          toolName,
          arguments: {},
        })
      ).find((i) => i.status === "ok");
    assert.deepEqual(await call("Write"), {
      status: "ok",
      result: { block: true, message: "not in prod" },
    });
    assert.deepEqual(await call("Bash"), {
      status: "ok",
      result: { block: true, message: "maintenance window", stopTurn: "maintenance window" },
    });
    assert.deepEqual(await call("Read"), {
      status: "ok",
      result: { shown: "reading is logged" },
    });
  });

  it("runs SessionStart once per session with its stdout as context, and gives plugin hooks their root", async () => {
    const r = registry(
      `
SessionStart:
  - matcher: startup
    hooks:
      - command: 'echo "root=$CLAUDE_PLUGIN_ROOT"; cat > "$CLAUDE_PROJECT_DIR/start.json"'
`,
      { label: "my-plugin", pluginRoot: "/plugins/my plugin" },
    );
    const ctx = { ...emptyContext({ workdir: dirs.root, messageCount: 1, iteration: 1 }) };
    const [first] = await invokeAll(r, "beforeChat", ctx);
    assert.deepEqual(first, {
      status: "ok",
      result: { message: "root=/plugins/my plugin", role: "user", beforePrompt: true },
    });
    const input = JSON.parse(readFileSync(dirs.path("start.json"), "utf8")) as Record<
      string,
      unknown
    >;
    assert.equal(input.hook_event_name, "SessionStart");
    assert.equal(input.source, "startup");
    const [second] = await invokeAll(r, "beforeChat", ctx);
    assert.equal(second.status, "skipped");
  });

  it("lets PreCompact skip a compaction (exit 2) and reports it", async () => {
    const r = registry(`
PreCompact:
  - matcher: auto
    hooks:
      - command: "echo 'not now' >&2; exit 2"
`);
    const base = {
      ...emptyContext({ workdir: dirs.root }),
      tokensUsed: 0,
      contextPercent: 90,
      keepLast: 4,
    };
    const [auto] = await invokeAll(r, "beforeCompaction", { ...base, forced: false });
    assert.deepEqual(auto, {
      status: "ok",
      result: { compaction: { skip: true }, notice: "Compaction skipped: not now" },
    });
    const [manual] = await invokeAll(r, "beforeCompaction", { ...base, forced: true });
    assert.equal(manual.status, "skipped");
  });
});
