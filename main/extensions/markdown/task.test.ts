/** Agents from Markdown and sub-agents through the Task tool, against a loopback model server. */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import type { AgentEvent } from "../../turn/events.ts";
import { loadAgents } from "../../agents/load.ts";
import { createEngine } from "../../engine/bootstrap.ts";
import {
  NOBODY_ANSWERS,
  YES_FOR_THIS_RUN,
  type AnswerFor,
  type Question,
  type QuestionKind,
  type QuestionOf,
  type QuestionPort,
} from "../../host/questions.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";
import { formatProblem } from "../../host/problem.ts";

interface Body {
  messages: { role: string; content: unknown }[];
  tools?: { function: { name: string; description: string } }[];
}

test("loadAgents(dir): Claude's fields (those Islet does not use read quietly), a namespace, unknown fields warned, a broken file named and skipped", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-agents-"));
  try {
    await writeFile(
      path.join(dir, "reviewer.md"),
      "---\nname: code-reviewer\ndescription: Reviews diffs\ntools: Read, Grep, Bash(git diff:*)\ndisallowedTools: Write\nmodel: inherit\nmaxTurns: 5\ncolor: blue\neffort: high\ninitialPrompt: Start by reading the diff\nmemory: project\nbackground: false\nmood: grumpy\n---\nYou review.\n",
    );
    await writeFile(path.join(dir, "broken.md"), "---\nmaxTurns: many\n---\nx");
    await writeFile(path.join(dir, "plain.md"), "Just a prompt.");
    const { items, errors, warnings } = loadAgents(dir, { namespace: "qa" });
    assert.deepEqual(
      items.map((a) => a.name),
      ["qa:plain", "qa:code-reviewer"],
    );
    const r = items[1];
    assert.deepEqual(r.tools, ["Read", "Grep", "Bash"]);
    assert.deepEqual(r.disallowedTools, ["Write"]);
    assert.equal(r.model, undefined, "inherit is the session's model");
    assert.equal(r.maxSteps, 5);
    assert.equal(r.systemPrompt, "You review.");
    assert.deepEqual(errors.map(formatProblem), [
      `${path.join(dir, "broken.md")}: maxTurns: Invalid input: expected number, received string`,
    ]);
    assert.deepEqual(warnings.map(formatProblem), [
      `${path.join(dir, "reviewer.md")}: mood: unknown field, ignored`,
    ]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("Task runs a sub-agent with only its tools, streams its progress under the Task card, returns its answer", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-task-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  const srv = await startFakeOpenAI([
    {
      toolCalls: [
        {
          id: "call_task",
          name: "Task",
          arguments: { subagent_type: "researcher", prompt: "Find the title of README.md" },
        },
      ],
    },
    { toolCalls: [{ id: "call_read", name: "Read", arguments: { path: "README.md" } }] },
    { text: ["The title is Demo."] },
    { text: ["Done: Demo."] },
  ]);
  try {
    await mkdir(path.join(home, "config", "agents"), { recursive: true });
    await mkdir(workdir, { recursive: true });
    await writeFile(path.join(workdir, "README.md"), "# Demo\n");
    await writeFile(
      path.join(home, "config", "providers.yaml"),
      `default: { provider: main, model: m }\nproviders:\n  main: { type: openai-compatible, base_url: ${srv.url} }\n`,
    );
    await writeFile(
      path.join(home, "config", "agents", "researcher.md"),
      "---\ndescription: Finds facts in the repo\ntools: Read, Grep\n---\nYou are a researcher.\n",
    );
    const warnings: string[] = [];
    const engine = await createEngine({
      home,
      workdir,
      env: {},
      questions: YES_FOR_THIS_RUN,
      warn: (p) => warnings.push(formatProblem(p)),
    });
    assert.deepEqual(warnings, []);
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    const r = await conv.submit("What is the README's title? Use the researcher.");
    assert.equal(r.kind === "turn" && r.outcome.text, "Done: Demo.");

    const bodies = srv.chatRequests.map((q) => q.body as Body);
    const names = (b: Body): string[] => (b.tools ?? []).map((t) => t.function.name).sort();
    assert.ok(names(bodies[0]).includes("Task"));
    const task = bodies[0].tools!.find((t) => t.function.name === "Task")!;
    assert.match(task.function.description, /- researcher: Finds facts in the repo/);
    // The sub-agent's own requests: its prompt, its system text, only its tools.
    assert.deepEqual(names(bodies[1]), ["Grep", "Read"]);
    assert.deepEqual(names(bodies[2]), ["Grep", "Read"]);
    assert.match(JSON.stringify(bodies[1].messages), /You are a researcher\./);
    assert.deepEqual(
      bodies[1].messages.filter((m) => m.role === "user").map((m) => m.content),
      ["Find the title of README.md"],
    );
    assert.doesNotMatch(JSON.stringify(bodies[1].messages), /Use the researcher/);
    // The parent gets the sub-agent's answer as the Task result.
    const last = JSON.stringify(bodies[3].messages);
    assert.match(last, /The title is Demo\./);

    const nested = events.filter((e) => e.type === "subagent");
    assert.ok(nested.length > 0);
    assert.ok(nested.every((e) => e.type === "subagent" && e.id === "call_task"));
    assert.ok(
      nested.some(
        (e) => e.type === "subagent" && e.event.type === "tool_call" && e.agent === "researcher",
      ),
    );
    const live = events
      .filter((e) => e.type === "tool_output" && e.id === "call_task")
      .map((e) => (e.type === "tool_output" ? e.text : ""))
      .join("");
    assert.match(live, /→ Read \{"path":"README.md"\}/);
    const result = events.find((e) => e.type === "tool_result" && e.id === "call_task");
    assert.equal(result?.type === "tool_result" && result.output, "The title is Demo.");
    await conv.close();
    await engine.close();
  } finally {
    await srv.close();
    await rm(root, { recursive: true, force: true });
  }
});

test("a sub-agent's tool calls are approved by the conversation that runs the Task, not the engine's default", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-task-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  const srv = await startFakeOpenAI([
    {
      toolCalls: [
        {
          id: "call_task",
          name: "Task",
          arguments: { subagent_type: "shell", prompt: "touch it" },
        },
      ],
    },
    { toolCalls: [{ id: "call_bash", name: "Bash", arguments: { command: "touch ran.txt" } }] },
    { text: ["could not"] },
    { text: ["ok"] },
  ]);
  try {
    await mkdir(path.join(home, "config", "agents"), { recursive: true });
    await mkdir(workdir, { recursive: true });
    await writeFile(
      path.join(home, "config", "providers.yaml"),
      `default: { provider: main, model: m }\nproviders:\n  main: { type: openai-compatible, base_url: ${srv.url} }\n`,
    );
    await writeFile(path.join(home, "config", "agents", "shell.md"), "---\ntools: Bash\n---\nRun.");
    // The engine's default would approve everything (--yes); the conversation's window denies.
    const engine = await createEngine({
      home,
      workdir,
      env: {},
      questions: YES_FOR_THIS_RUN,
      warn: () => {},
    });
    const asked: string[] = [];
    const windowPort: QuestionPort = {
      ask: async <K extends QuestionKind>(q: QuestionOf<K>) => {
        const question: Question = q;
        asked.push(question.kind === "approval" ? question.tool : question.kind);
        return (question.kind === "approval" ? "deny" : NOBODY_ANSWERS[q.kind]) as AnswerFor<K>;
      },
    };
    const conv = await engine.open({ emit: () => {}, questions: windowPort });
    await conv.submit("go");
    assert.deepEqual(asked, ["Bash"]);
    await assert.rejects(stat(path.join(workdir, "ran.txt")), /ENOENT/);
    assert.match(JSON.stringify(srv.chatRequests[2].body), /the user declined this Bash call/);
    await engine.close();
  } finally {
    await srv.close();
    await rm(root, { recursive: true, force: true });
  }
});

test("Claude Code's built-in agent types run on the default agent: general-purpose with its tools, Explore looking only; an installed agent of the name wins", async () => {
  const root = await mkdtemp(path.join(tmpdir(), "islet-task-types-"));
  const home = path.join(root, "home");
  const workdir = path.join(root, "work");
  const task = (id: string, type: string) => ({
    toolCalls: [
      { id, name: "Task", arguments: { subagent_type: type, prompt: `job for ${type}` } },
    ],
  });
  const srv = await startFakeOpenAI([
    task("t1", "general-purpose"),
    { text: ["general answer"] },
    task("t2", "Explore"),
    { text: ["explore answer"] },
    task("t3", "Plan"),
    { text: ["my own plan"] },
    task("t4", "nobody"),
    { text: ["Done."] },
  ]);
  try {
    await mkdir(path.join(home, "config", "agents"), { recursive: true });
    await mkdir(workdir, { recursive: true });
    await writeFile(
      path.join(home, "config", "providers.yaml"),
      `default: { provider: main, model: m }\nproviders:\n  main: { type: openai-compatible, base_url: ${srv.url} }\n`,
    );
    // The user's own Plan agent takes the name.
    await writeFile(
      path.join(home, "config", "agents", "Plan.md"),
      "---\ndescription: Plans my way\ntools: Read\n---\nYou plan the user's way.\n",
    );
    const engine = await createEngine({
      home,
      workdir,
      env: {},
      questions: YES_FOR_THIS_RUN,
      warn: () => {},
    });
    const events: AgentEvent[] = [];
    const conv = await engine.open({ emit: (e) => events.push(e) });
    await conv.submit("Use the agents.");
    const bodies = srv.chatRequests.map((q) => q.body as Body);
    const names = (b: Body): string[] => (b.tools ?? []).map((t) => t.function.name).sort();
    const parentTools = names(bodies[0]);
    // general-purpose: the default agent's tools (never Task inside a Task).
    assert.deepEqual(
      names(bodies[1]),
      parentTools.filter((n) => n !== "Task"),
    );
    assert.deepEqual(names(bodies[3]), ["Glob", "Grep", "Ls", "Read", "TodoWrite"]);
    assert.match(JSON.stringify(bodies[3].messages), /never change a file/);
    assert.deepEqual(names(bodies[5]), ["Read"]);
    assert.match(JSON.stringify(bodies[5].messages), /You plan the user's way/);
    // Not listed to the model: Islet's own agents are.
    const taskSpec = bodies[0].tools!.find((t) => t.function.name === "Task")!;
    assert.doesNotMatch(taskSpec.function.description, /general-purpose|Explore/);
    const results = events.flatMap((e) => (e.type === "tool_result" ? [e] : []));
    assert.deepEqual(
      results.map((r) => [r.id, r.error ? "error" : r.output]),
      [
        ["t1", "general answer"],
        ["t2", "explore answer"],
        ["t3", "my own plan"],
        ["t4", "error"],
      ],
    );
    assert.match(String(results[3].output), /no agent "nobody"; agents: /);
    await conv.close();
    await engine.close();
  } finally {
    await srv.close();
    await rm(root, { recursive: true, force: true });
  }
});
