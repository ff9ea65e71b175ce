import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseCondition } from "./parse.ts";

describe("parseCondition", () => {
  it("parses flags, comparisons and value terms", () => {
    const c = parseCondition(
      "auto and context_above:70 and model_has:tools and model_is:Llama3:8b",
    );
    assert.deepEqual(
      c.all.map((l) => l.term),
      [
        { kind: "flag", flag: "auto" },
        { kind: "compare", metric: "context", op: "gt", value: 70 },
        { kind: "model_has", capability: "tools" },
        { kind: "model_is", name: "Llama3:8b" },
      ],
    );
    assert.equal(c.source, "auto and context_above:70 and model_has:tools and model_is:Llama3:8b");
  });

  it("parses every comparison name", () => {
    const names = [
      ["context_below:5", "context", "lt"],
      ["history_gt:1", "history", "gt"],
      ["tool_errors_lt:2", "tool_errors", "lt"],
      ["tool_calls_gt:3", "tool_calls", "gt"],
      ["turns_lt:4", "turns", "lt"],
      ["compactions_gt:0", "compactions", "gt"],
      ["iteration_lt:9", "iteration", "lt"],
      ["tokens_total_gt:1000", "tokens_total", "gt"],
      ["model_context_lt:8192", "model_context", "lt"],
      ["model_params_gt:0.5", "model_params", "gt"],
    ] as const;
    for (const [text, metric, op] of names) {
      const [lit] = parseCondition(text).all;
      assert.equal(lit.term.kind, "compare", text);
      if (lit.term.kind === "compare") {
        assert.equal(lit.term.metric, metric);
        assert.equal(lit.term.op, op);
      }
    }
  });

  it("handles not, including around and", () => {
    const c = parseCondition("todo_pending and not turns_gt:50");
    assert.deepEqual(
      c.all.map((l) => [l.negated, l.text]),
      [
        [false, "todo_pending"],
        [true, "not turns_gt:50"],
      ],
    );
    assert.equal(parseCondition("not not auto").all[0].negated, false);
  });

  it("keeps bash commands verbatim: spaces, colons and quoted and", () => {
    const c = parseCondition(`bash:grep -q "a and b" x.txt  &&  echo a:b and exists:"my dir/f"`);
    assert.deepEqual(
      c.all.map((l) => l.term),
      [
        { kind: "bash", command: `grep -q "a and b" x.txt  &&  echo a:b` },
        { kind: "exists", path: "my dir/f" },
      ],
    );
  });

  it("splits a bare and even inside a bash command (only and at top level splits)", () => {
    assert.throws(() => parseCondition("bash:true and false"), /unknown condition "false"/);
  });

  it("reports the bad term", () => {
    const cases: [string, RegExp][] = [
      [
        "contxt_above:70",
        /: unknown condition "contxt_above:70" \(did you mean context_above\?\)$/,
      ],
      ["history_gt:x", /: history_gt needs a number, got "x"$/],
      ["history_gt", /: history_gt needs a number, e.g. history_gt:10$/],
      ["history_gt:1.5", /: history_gt needs a whole number, got "1.5"$/],
      ["turns_gt:-1", /turns_gt needs a number, got "-1"/],
      ["auto:yes", /: auto takes no value, got "auto:yes"$/],
      ["model_has:vison", /unknown capability "vison" \(did you mean vision\?\)/],
      ["model_has:", /model_has needs a capability/],
      ["model_is:", /model_is needs a model name/],
      ["exists:", /exists needs a path/],
      ["bash:  ", /bash needs a command/],
      ["", /empty condition/],
      ["auto and", /"and" needs a condition on both sides/],
      ["and auto", /"and" needs a condition on both sides/],
      ["auto and not", /"not" needs a condition after it/],
      ["auto turns_gt:5", /more than one condition: join conditions with "and"/],
      ["zzzzzz", /unknown condition "zzzzzz" \(known: todo_empty/],
    ];
    for (const [text, re] of cases) assert.throws(() => parseCondition(text), re, text);
  });

  it("accepts decimals for context and model_params only", () => {
    assert.equal(parseCondition("context_above:70.5").all.length, 1);
    assert.equal(parseCondition("model_params_lt:0.5").all.length, 1);
  });
});
