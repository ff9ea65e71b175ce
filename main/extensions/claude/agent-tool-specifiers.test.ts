/**
 * A Claude Code plugin's agents with tool specifiers, in real turns against the loopback model:
 * `Bash(git:*)` lets the agent run git and refuses `rm -rf`, `Agent(worker)` lets its Task start
 * the worker and not another agent, and a sub-agent's `disallowedTools: Bash(rm:*)` refuses only
 * the calls it covers.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { startEngineRig, type EngineRig } from "../../engine/testing.ts";

const LEAD = `---
name: lead
description: Plans and delegates
tools: Read, Agent(worker), Bash(git:*)
---
You lead.
`;

const WORKER = `---
name: worker
description: Does the work
tools: Read, Bash
disallowedTools: Bash(rm:*)
---
You work.
`;

const SPY = `---
name: spy
description: Should never be started by lead
---
You spy.
`;

interface Body {
  tools?: { function: { name: string; description: string } }[];
}

describe("an agent's tool specifiers hold in its calls", () => {
  let rig: EngineRig;

  before(async () => {
    rig = await startEngineRig({
      prefix: "islet-agent-specifiers-",
      files: {
        "home/plugins/crew/.claude-plugin/plugin.json": JSON.stringify({ name: "crew" }),
        "home/plugins/crew/agents/lead.md": LEAD,
        "home/plugins/crew/agents/worker.md": WORKER,
        "home/plugins/crew/agents/spy.md": SPY,
        "work/keep.txt": "keep\n",
        "work/also.txt": "also\n",
      },
      script: [
        {
          toolCalls: [
            { id: "call_git", name: "Bash", arguments: { command: "git --version" } },
            {
              id: "call_rm",
              name: "Bash",
              arguments: { command: "git --version && rm -f keep.txt" },
            },
            {
              id: "call_spy",
              name: "Task",
              arguments: { subagent_type: "crew:spy", prompt: "look around" },
            },
          ],
        },
        {
          toolCalls: [
            {
              id: "call_worker",
              name: "Task",
              arguments: { subagent_type: "crew:worker", prompt: "tidy up" },
            },
          ],
        },
        // The worker's turn.
        {
          toolCalls: [
            { id: "w_rm", name: "Bash", arguments: { command: "rm -f also.txt" } },
            { id: "w_echo", name: "Bash", arguments: { command: "echo worked" } },
          ],
        },
        { text: ["worker done"] },
        { text: ["All done."] },
      ],
      plugins: {},
    });
  });

  after(() => rig.close());

  it("refuses calls outside Bash(git:*), Agent(worker) and Bash(rm:*) with why", async () => {
    const { dirs, model } = rig;
    const { conv, events } = await rig.open();
    assert.equal((await conv.submit("/agent crew:lead")).kind, "command");
    const r = await conv.submit("tidy the project");
    assert.ok(r.kind === "turn" && r.outcome.status === "done", JSON.stringify(r));
    const result = (id: string) => {
      const e = events.find((x) => x.type === "tool_result" && x.id === id);
      assert.ok(e?.type === "tool_result", `no result for ${id}`);
      return e;
    };
    assert.equal(result("call_git").error, false);
    assert.match(result("call_git").output, /git version/);

    const rm = result("call_rm");
    assert.equal(rm.error, true);
    assert.match(rm.output, /agent "crew:lead" may use Bash only as Bash\(git:\*\)/);
    assert.match(rm.output, /lead\.md/);
    assert.ok(existsSync(dirs.path("work/keep.txt")), "rm ran");

    // The Task tool offered to lead lists only the sub-agents it may start.
    const task = (model.chatRequests[0].body as Body).tools?.find(
      (t) => t.function.name === "Task",
    );
    assert.ok(task, "Task is offered");
    assert.match(task.function.description, /- crew:worker: Does the work/);
    assert.doesNotMatch(task.function.description, /crew:spy/);

    const spy = result("call_spy");
    assert.equal(spy.error, true);
    assert.match(spy.output, /may use Task only as Agent\(worker\)/);

    const worker = result("call_worker");
    assert.equal(worker.error, false, worker.output);
    assert.match(worker.output, /worker done/);
    // The worker's own rule: its rm refused, its echo ran.
    const nested = events.flatMap((e) =>
      e.type === "subagent" && e.event.type === "tool_result" ? [e.event] : [],
    );
    const wRm = nested.find((e) => e.id === "w_rm");
    assert.ok(wRm && wRm.error, JSON.stringify(nested));
    assert.match(String(wRm.output), /agent "crew:worker" may not use Bash\(rm:\*\)/);
    assert.ok(existsSync(dirs.path("work/also.txt")), "the worker's rm ran");
    const wEcho = nested.find((e) => e.id === "w_echo");
    assert.ok(wEcho && !wEcho.error, JSON.stringify(nested));
    await conv.close();
  });
});
