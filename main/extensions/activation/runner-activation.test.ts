/**
 * End to end: a native CLI-tool runner plugin (a small script) driven by the
 * loopback model server through the real engine. The model asks to activate it; with consent it
 * runs and its output reaches the model, without consent nothing runs. The model's arguments
 * reach the program as literal argv entries, never through a shell.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { startPluginHarness, type PluginFiles } from "../../engine/testing.ts";
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
