import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import type { Context } from "../../../plugins/sdk/index.ts";
import { conditionCheck } from "./index.ts";
import { evaluateCondition } from "./evaluate.ts";
import { parseCondition } from "./parse.ts";
import { runBashCondition } from "./bash.ts";
import { emptyContext } from "../../turn/hooks/testing.ts";

/** A Context with every figure the conditions read set to a known value. */
function makeContext(): Context {
  return emptyContext({
    iteration: 7,
    tokens: { estimate: 5000, lastApi: 4800, percent: 62.5, max: 8000 },
    agent: "main",
    modelInfo: {
      name: "Llama3:8B",
      family: "llama",
      parameterCount: 8_000_000_000,
      contextLength: 8192,
      capabilities: ["tools", "Vision"],
    },
    stats: {
      startTime: "2026-01-01T00:00:00Z",
      duration: 0,
      interactions: 1,
      turns: 4,
      iterations: 7,
      tools: { calls: 12, errors: 3 },
      parseRetries: 0,
      compactions: 1,
      tokens: { in: 900, out: 100 },
      topTools: [],
    },
    workdir: "/nowhere",
    messageCount: 20,
    auto: true,
    maxSteps: 50,
    todo: { pending: 1, inProgress: 1, total: 3 },
    provider: "ollama",
  });
}

const workdir = mkdtempSync(path.join(tmpdir(), "islet-cond-"));
mkdirSync(path.join(workdir, "sub dir"));
writeFileSync(path.join(workdir, "sub dir", "f.txt"), "x");
after(() => rmSync(workdir, { recursive: true, force: true }));

const noBash = (): Promise<boolean> => Promise.reject(new Error("bash must not run"));
const env = { workdir, runBash: noBash };
const check = (text: string, ctx = makeContext()): Promise<boolean> =>
  evaluateCondition(parseCondition(text), ctx, env);

describe("evaluateCondition", () => {
  it("evaluates every term both ways against the Context", async () => {
    // [condition true for makeContext(), condition false for it]
    const pairs: [string, string][] = [
      ["todo_pending", "todo_empty"],
      ["auto", "not auto"],
      ["context_above:62", "context_above:62.5"],
      ["context_below:63", "context_below:62.5"],
      ["history_gt:19", "history_gt:20"],
      ["history_lt:21", "history_lt:20"],
      ["tool_errors_gt:2", "tool_errors_gt:3"],
      ["tool_errors_lt:4", "tool_errors_lt:3"],
      ["tool_calls_gt:11", "tool_calls_gt:12"],
      ["tool_calls_lt:13", "tool_calls_lt:12"],
      ["turns_gt:3", "turns_gt:4"],
      ["turns_lt:5", "turns_lt:4"],
      ["compactions_gt:0", "compactions_gt:1"],
      ["compactions_lt:2", "compactions_lt:1"],
      ["iteration_gt:6", "iteration_gt:7"],
      ["iteration_lt:8", "iteration_lt:7"],
      ["tokens_total_gt:999", "tokens_total_gt:1000"],
      ["tokens_total_lt:1001", "tokens_total_lt:1000"],
      ["model_context_gt:8000", "model_context_gt:8192"],
      ["model_context_lt:9000", "model_context_lt:8192"],
      ["model_params_gt:7.5", "model_params_gt:8"],
      ["model_params_lt:8.5", "model_params_lt:8"],
      ["model_has:tools", "model_has:thinking"],
      ["model_has:vision", "model_has:embedding"],
      ["model_is:llama3:8b", "model_is:llama3"],
      ["exists:sub dir/f.txt", "exists:missing.txt"],
      [`exists:${path.join(workdir, "sub dir")}`, "exists:/definitely/not/here"],
    ];
    for (const [yes, no] of pairs) {
      assert.equal(await check(yes), true, yes);
      assert.equal(await check(no), false, no);
      assert.equal(await check(`not ${yes}`), false, `not ${yes}`);
      assert.equal(await check(`not ${no}`), true, `not ${no}`);
    }
  });

  it("todo_done and todo_empty follow the todo counts", async () => {
    const ctx = makeContext();
    ctx.todo = { pending: 0, inProgress: 0, total: 2 };
    assert.equal(await check("todo_done", ctx), true);
    assert.equal(await check("todo_pending", ctx), false);
    ctx.todo = { pending: 0, inProgress: 0, total: 0 };
    assert.equal(await check("todo_empty", ctx), true);
    assert.equal(await check("todo_done", ctx), false, "nothing to be done is not done");
    ctx.todo = { pending: 0, inProgress: 1, total: 1 };
    assert.equal(await check("todo_pending", ctx), true);
    assert.equal(await check("todo_done", ctx), false);
  });

  it("model comparisons are false while the model is unresolved (zeros)", async () => {
    const ctx = makeContext();
    ctx.modelInfo = { name: "", family: "", parameterCount: 0, contextLength: 0, capabilities: [] };
    for (const t of ["model_params_lt:10", "model_params_gt:0", "model_context_lt:100000"]) {
      assert.equal(await check(t, ctx), false, t);
    }
  });

  it("and needs every literal; a false context literal spares bash", async () => {
    assert.equal(await check("auto and context_above:50 and history_gt:5"), true);
    assert.equal(await check("auto and context_above:70"), false);
    // noBash would reject if it were called: the false literal short-circuits it.
    assert.equal(await check("bash:exit 0 and turns_gt:100"), false);
  });

  it("bash: uses the runner given, in written order after context terms", async () => {
    const ran: string[] = [];
    const runBash = async (cmd: string): Promise<boolean> => {
      ran.push(cmd);
      return cmd.includes("ok");
    };
    const c = parseCondition("bash:echo ok: yes and auto and bash:no");
    assert.equal(await evaluateCondition(c, makeContext(), { workdir, runBash }), false);
    assert.deepEqual(ran, ["echo ok: yes", "no"]);
  });

  it("conditionCheck binds text and environment", async () => {
    const cc = conditionCheck("auto and not todo_empty", { workdir });
    assert.equal(cc.text, "auto and not todo_empty");
    assert.equal(await cc.test(makeContext()), true);
  });
});

describe("runBashCondition", { skip: process.platform === "win32" }, () => {
  it("is true on exit 0 and runs in the workdir", async () => {
    assert.equal(await runBashCondition('test -f "sub dir/f.txt"', workdir), true);
    assert.equal(await runBashCondition("exit 3", workdir), false);
  });

  it("the default runner is used by bash: terms", async () => {
    const c = parseCondition('bash:[ "$(cat "sub dir/f.txt")" = x ]');
    assert.equal(await evaluateCondition(c, makeContext(), { workdir }), true);
  });

  it("a command past its time limit is killed and false", async () => {
    const t0 = performance.now();
    assert.equal(await runBashCondition("sleep 30", workdir, 200), false);
    assert.ok(performance.now() - t0 < 5000);
  });
});
