/**
 * End to end: a native CLI-tool runner plugin (a small script) driven by the
 * loopback model server through the real engine. The model asks to activate it; with consent it
 * runs and its output reaches the model, without consent nothing runs. The model's arguments
 * reach the program as literal argv entries, never through a shell.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import { startPluginHarness, type PluginFiles } from "../../engine/testing.ts";
import { formatProblem } from "../../host/problem.ts";
import type { Question, QuestionPort } from "../../host/questions.ts";
import { answering, type ChatBody } from "./testing.ts";

// Counts the words of the JSON input's `text` and echoes its argv; records that it ran.
const script = `
import { appendFileSync } from "node:fs";
let raw = "";
process.stdin.on("data", (c) => (raw += c));
process.stdin.on("end", () => {
  appendFileSync(new URL("./ran.log", import.meta.url), "ran\\n");
  const input = JSON.parse(raw);
  const words = String(input.input?.text ?? "").split(/\\s+/).filter(Boolean).length;
  console.log("words=" + words + " argv=" + JSON.stringify(process.argv.slice(2)));
});
`;

const wordcli: PluginFiles = {
  yaml: [
    'description: "Counts the words of a text with a command-line program."',
    "runner: native",
    'command: "node {plugin_dir}/count.mjs"',
    "",
  ].join("\n"),
  code: "",
  files: { "count.mjs": script },
};

const activate = {
  toolCalls: [{ name: "activate_plugin", arguments: { name: "wordcli", reason: "to count" } }],
};
const hostile = ["--words", "; touch pwned", "$(touch pwned)", "`touch pwned`"];
const invoke = {
  toolCalls: [{ name: "wordcli", arguments: { args: hostile, input: { text: "one two three" } } }],
};

test("the model asks for a runner plugin, the user allows: it runs and its output reaches the model", async () => {
  const { port, asked } = answering("allow");
  const h = await startPluginHarness({
    plugins: { wordcli },
    questions: port,
    env: { PATH: process.env.PATH ?? "" },
    script: [activate, invoke, { text: ["three words"] }],
  });
  try {
    assert.equal(h.engine.tools.get("wordcli"), undefined, "no tool before activation");
    await h.conversation.submit("count the words of 'one two three'");
    const bodies = h.server.chatRequests.map((r) => r.body as ChatBody);
    assert.match(bodies[0].messages[0].content, /- wordcli \(inactive\): Counts the words/);
    assert.ok((bodies[1].tools ?? []).some((t) => t.function.name === "wordcli"));
    const question = asked.find((q) => q.kind === "plugin-activation");
    assert.equal(question?.kind === "plugin-activation" && question.pluginKind, "runner");
    assert.ok(
      question?.kind === "plugin-activation" && question.details.some((l) => /count\.mjs/.test(l)),
      "the dialog says which program runs",
    );
    assert.equal(
      bodies[2].messages.at(-1)?.content,
      `words=3 argv=${JSON.stringify(hostile)}\n[exit code 0]`,
    );
    assert.ok(!existsSync(path.join(h.workdir, "pwned")), "no shell ran the arguments");
    assert.ok(!existsSync(path.join(h.pluginsDir, "wordcli", "pwned")));
  } finally {
    await h.close();
  }
});

test("the user refuses: the model is told and the program never runs", async () => {
  const { port } = answering("deny");
  const h = await startPluginHarness({
    plugins: { wordcli },
    questions: port,
    env: { PATH: process.env.PATH ?? "" },
    script: [activate, invoke, { text: ["cannot count"] }],
  });
  try {
    await h.conversation.submit("count the words");
    const bodies = h.server.chatRequests.map((r) => r.body as ChatBody);
    assert.equal(
      bodies[1].messages.at(-1)?.content,
      "wordcli was not activated: the user denied it",
    );
    assert.ok(!(bodies[1].tools ?? []).some((t) => t.function.name === "wordcli"));
    assert.ok(!existsSync(path.join(h.pluginsDir, "wordcli", "ran.log")), "nothing ran");
    assert.equal(h.engine.activation.list().find((p) => p.name === "wordcli")?.status, "inactive");
  } finally {
    await h.close();
  }
});

test("attack: a runner allowed for the workspace whose script is swapped is not restored, and asking again names the file", async () => {
  const first = answering("allow");
  const h = await startPluginHarness({
    plugins: { wordcli },
    questions: first.port,
    env: { PATH: process.env.PATH ?? "" },
  });
  const { home, workdir, pluginsDir } = h;
  const root = path.dirname(home);
  const open = async (questions: QuestionPort) => {
    const warnings: string[] = [];
    const engine = await createEngine({
      home,
      workdir,
      env: { PATH: process.env.PATH ?? "" },
      plugins: {},
      questions,
      warn: (p) => warnings.push(formatProblem(p)),
    });
    return { engine, warnings };
  };
  const swapped = path.join(pluginsDir, "wordcli", "swapped.log");
  try {
    const allowed = await h.engine.activation.activate("wordcli", { by: "user", reason: "" });
    assert.equal(allowed.kind, "activated");
    await h.conversation.close();
    await h.engine.close();
    await h.server.close();

    const same = answering("deny");
    const second = await open(same.port);
    const status = () => second.engine.activation.list().find((p) => p.name === "wordcli")?.status;
    assert.equal(status(), "active", "unchanged: restored without asking");
    assert.deepEqual(same.asked, []);
    await second.engine.close();

    // Only the script changes: the manifest, its command and everything consent showed stay.
    const evil = `import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./swapped.log", import.meta.url), "ran");\n`;
    await writeFile(path.join(pluginsDir, "wordcli", "count.mjs"), evil);
    const later = answering("deny");
    const third = await open(later.port);
    try {
      const listed = third.engine.activation.list().find((p) => p.name === "wordcli");
      assert.equal(listed?.status, "inactive", "the old approval does not cover the new script");
      assert.equal(third.engine.tools.get("wordcli"), undefined);
      assert.ok(
        third.warnings.some((w) => /wordcli changed since it was activated.*count\.mjs/s.test(w)),
        third.warnings.join("\n"),
      );
      const outcome = await third.engine.activation.activate("wordcli", {
        by: "model",
        reason: "to count",
      });
      assert.equal(outcome.kind, "denied");
      const question = later.asked.find((q) => q.kind === "plugin-activation");
      assert.equal(
        question?.kind === "plugin-activation" && question.details[0],
        "changed since you allowed it: count.mjs (what its command runs)",
      );
      assert.ok(!existsSync(swapped), "the swapped script never ran");
    } finally {
      await third.engine.close();
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});

test("attack: a runner's script swapped while the question is open is refused at activation", async () => {
  let dir = "";
  const port = {
    ask: async (q: Question) => {
      if (q.kind !== "plugin-activation") return "deny";
      // The user reads the dialog; meanwhile the script changes under it.
      await writeFile(path.join(dir, "count.mjs"), `${script}\n// swapped\n`);
      return "allow";
    },
  } as QuestionPort;
  const h = await startPluginHarness({
    plugins: { wordcli },
    questions: port,
    env: { PATH: process.env.PATH ?? "" },
  });
  dir = path.join(h.pluginsDir, "wordcli");
  try {
    const outcome = await h.engine.activation.activate("wordcli", { by: "user", reason: "" });
    assert.equal(outcome.kind, "failed");
    assert.match(outcome.line, /count\.mjs changed since it was listed/);
    assert.equal(h.engine.tools.get("wordcli"), undefined);
  } finally {
    await h.close();
  }
});

test("attack: an active runner whose script is swapped refuses to run it until it is allowed again", async () => {
  const { port, asked } = answering("allow");
  const call = { toolCalls: [{ name: "wordcli", arguments: { input: { text: "a b" } } }] };
  const h = await startPluginHarness({
    plugins: { wordcli },
    questions: port,
    env: { PATH: process.env.PATH ?? "" },
    script: [call, { text: ["refused"] }, call, { text: ["counted"] }],
  });
  const dir = path.join(h.pluginsDir, "wordcli");
  try {
    assert.equal(
      (await h.engine.activation.activate("wordcli", { by: "user", reason: "" })).kind,
      "activated",
    );
    await writeFile(
      path.join(dir, "count.mjs"),
      `${script}\nappendFileSync(new URL("./swapped.log", import.meta.url), "ran");\n`,
    );
    await h.conversation.submit("count");
    const refusal = (h.server.chatRequests[1].body as ChatBody).messages.at(-1)?.content ?? "";
    assert.match(refusal, /count\.mjs changed since it was allowed, so it did not run/);
    assert.ok(!existsSync(path.join(dir, "ran.log")) && !existsSync(path.join(dir, "swapped.log")));

    // Deactivating forgets the approval; activating asks about the version on disk now.
    await h.engine.activation.deactivate("wordcli");
    asked.length = 0;
    const again = await h.engine.activation.activate("wordcli", { by: "user", reason: "" });
    assert.equal(again.kind, "activated", again.line);
    assert.equal(asked.filter((q) => q.kind === "plugin-activation").length, 1);
    await h.conversation.submit("count again");
    assert.ok(existsSync(path.join(dir, "swapped.log")), "allowed again: the new version runs");
  } finally {
    await h.close();
  }
});
