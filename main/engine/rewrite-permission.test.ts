/**
 * `permissions.rewrite`: a plugin's beforeToolExecution that rewrites an asking tool's arguments
 * needs a person for every call unless the user granted it that tool; granted (for good, or for
 * one run by --yes), the rewritten call follows the tool's usual approval. Real engine, real
 * isolates, once per sandbox backend.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SANDBOX_BACKENDS } from "../sandbox/backends.ts";
import { startPluginHarness as startHarness } from "./testing.ts";
import { YES_ANSWERS, type Question, type QuestionPort } from "../host/questions.ts";

const tidy = (permissions: string) => ({
  yaml: `description: "adds a marker to commands"\n${permissions}`,
  code: `export function beforeToolExecution(ctx) {
    if (ctx.toolName !== "Bash") return undefined;
    return { arguments: { ...ctx.arguments, command: ctx.arguments.command + " rewritten" } };
  }`,
});
const ASKS = 'permissions: { rewrite: [{ tool: Bash, reason: "marks every command" }] }\n';
const bashCall = { toolCalls: [{ name: "Bash", arguments: { command: "echo ran" } }] };

for (const backend of SANDBOX_BACKENDS) {
  describe(`[${backend}]`, () => {
    const startPluginHarness = (opts: Parameters<typeof startHarness>[0]) =>
      startHarness({ ...opts, flags: { pluginRuntime: backend, ...opts.flags } });

    test("--yes grants a declared rewrite for the run: the rewritten command runs", async () => {
      const h = await startPluginHarness({
        plugins: { tidy: tidy(ASKS) },
        script: [bashCall, { text: ["done"] }],
      });
      try {
        assert.deepEqual(h.warnings, []);
        await h.conversation.submit("run it");
        const [result] = h.of("tool_result");
        assert.match(result.output, /ran rewritten/);
      } finally {
        await h.close();
      }
    });

    test("without the permission, --yes still refuses a rewritten Bash call", async () => {
      const h = await startPluginHarness({
        plugins: { tidy: tidy("") },
        script: [bashCall, { text: ["done"] }],
      });
      try {
        await h.conversation.submit("run it");
        const [result] = h.of("tool_result");
        assert.match(result.output, /rewritten by plugin tidy; such a call needs a person's/);
        assert.doesNotMatch(result.output, /ran rewritten/);
      } finally {
        await h.close();
      }
    });

    test("granted by a person, the rewrite is asked about once; its calls then follow Bash's own rule", async () => {
      const asked: Question[] = [];
      const person: QuestionPort = {
        ask: async (q) => {
          asked.push(q);
          const answers = { ...YES_ANSWERS, permissions: "grant", approval: "always" } as const;
          return answers[q.kind] as never;
        },
      };
      const h = await startPluginHarness({
        plugins: { tidy: tidy(ASKS) },
        questions: person,
        script: [bashCall, { text: ["one"] }, bashCall, { text: ["two"] }],
      });
      try {
        await h.conversation.submit("run it");
        await h.conversation.submit("again");
        const results = h.of("tool_result").map((r) => r.output);
        assert.equal(results.length, 2);
        for (const out of results) assert.match(out, /ran rewritten/);
        assert.deepEqual(
          asked.map((q) => q.kind),
          ["permissions", "approval"],
          "the grant once, then Bash's approval once: the 'always' is remembered",
        );
        const [grant, approval] = asked;
        assert.ok(grant.kind === "permissions");
        assert.deepEqual(grant.requested, [
          { kind: "rewrite", target: "Bash", reason: "marks every command" },
        ]);
        assert.ok(approval.kind === "approval");
        assert.deepEqual(approval.rewrittenBy, ["tidy"], "the person still sees who rewrote it");
        assert.deepEqual(
          h.engine.consent.permissionsOf("tidy").map((p) => p.status),
          ["granted"],
        );
      } finally {
        await h.close();
      }
    });

    test("an untrusted folder's plugin asking for the rewrite is held back: each rewritten call still asks", async () => {
      const asked: Question[] = [];
      const person: QuestionPort = {
        ask: async (q) => {
          asked.push(q);
          const answers = { ...YES_ANSWERS, "workspace-trust": "deny", approval: "deny" } as const;
          return answers[q.kind] as never;
        },
      };
      const h = await startPluginHarness({
        plugins: {},
        projectPlugins: { tidy: tidy(ASKS) },
        questions: person,
        script: [bashCall, { text: ["done"] }],
      });
      try {
        await h.conversation.submit("run it");
        const [result] = h.of("tool_result");
        assert.doesNotMatch(result.output, /ran rewritten/);
        assert.deepEqual(
          h.engine.consent.permissionsOf("tidy").map((p) => p.status),
          ["held-back"],
        );
        const approval = asked.find((q) => q.kind === "approval");
        assert.ok(approval?.kind === "approval");
        assert.deepEqual(approval.rewrittenBy, ["tidy"]);
        assert.equal(approval.arguments.command, "echo ran rewritten");
      } finally {
        await h.close();
      }
    });
  });
}
