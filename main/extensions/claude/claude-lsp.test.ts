/**
 * A Claude plugin's language server (`.lsp.json`, in the shape Claude Code documents) in a real
 * turn: started on the first Write of a file whose extension it names, its diagnostics reach the
 * model in the tool's result; a file it does not name never starts it; one that cannot start is
 * one warning and leaves the result as it was. The server is a real process (testing/todo-lsp.mjs).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import type { Engine } from "../../engine/engine.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { startFakeOpenAI, type FakeServer } from "../../providers/testing/index.ts";
import { formatProblem } from "../../host/problem.ts";
import type { QuestionPort } from "../../host/questions.ts";

const SERVER = readFileSync(path.join(import.meta.dirname, "testing", "todo-lsp.mjs"), "utf8");
const allow = { ask: async () => "allow" } as unknown as QuestionPort;
const write = (file: string, content: string) => ({
  toolCalls: [{ name: "Write", arguments: { path: file, content } }],
});

/** The tool results the model was sent, in order. */
function toolResults(model: FakeServer): string[] {
  const last = model.chatRequests.at(-1)?.body as {
    messages: { role: string; content: unknown }[];
  };
  return last.messages.filter((m) => m.role === "tool").map((m) => String(m.content));
}

describe("a Claude plugin's language server", () => {
  let dirs: TempDir;
  let model: FakeServer;
  let engine: Engine;
  const warnings: string[] = [];

  before(async () => {
    dirs = tempDir("islet-claude-lsp-");
    dirs.write({
      "home/plugins/todo-lint/.claude-plugin/plugin.json": JSON.stringify({
        name: "todo-lint",
        lspServers: {
          broken: {
            command: "/nonexistent/lsp-server",
            extensionToLanguage: { ".md": "markdown" },
          },
        },
      }),
      "home/plugins/todo-lint/server.mjs": SERVER,
      "home/plugins/todo-lint/.lsp.json": JSON.stringify({
        todo: {
          command: process.execPath,
          args: ["${CLAUDE_PLUGIN_ROOT}/server.mjs"],
          env: { STARTS_LOG: dirs.path("starts.log") },
          extensionToLanguage: { ".txt": "plaintext" },
        },
      }),
      "work/.keep": "",
    });
    model = await startFakeOpenAI([
      write("notes.txt", "first line\n  TODO: finish\n"),
      write("data.json", '{"TODO": 1}\n'),
      write("readme.md", "TODO\n"),
      write("notes.txt", "done\n"),
      { text: ["Written."] },
    ]);
    engine = await createEngine({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      env: {},
      plugins: {},
      flags: { provider: "openai-compatible", baseUrl: model.url, model: "m" },
      questions: allow,
      warn: (p) => warnings.push(formatProblem(p)),
    });
    const conv = await engine.open({ emit: () => {}, questions: allow });
    await conv.submit("write the notes");
    await conv.close();
  });
  after(async () => {
    await engine?.close();
    await model?.close();
    dirs?.remove();
  });

  it("adds the server's diagnostics to a Write's result for the model", () => {
    const [notes, json, readme, fixed] = toolResults(model);
    assert.match(
      notes,
      /<diagnostics file="notes\.txt" server="todo">\nnotes\.txt:2:3: warning: TODO left in the code\n<\/diagnostics>$/,
    );
    assert.doesNotMatch(json, /diagnostics/, "no server names .json");
    assert.doesNotMatch(readme, /diagnostics/, "the server that cannot start leaves it as it was");
    assert.doesNotMatch(fixed, /diagnostics/, "no diagnostics left: nothing added");
  });

  it("starts the server once, on demand, and says once why another could not start", () => {
    assert.equal(readFileSync(dirs.path("starts.log"), "utf8").trim().split("\n").length, 1);
    const failed = warnings.filter((w) => w.includes('LSP server "broken"'));
    assert.equal(failed.length, 1, warnings.join("\n"));
    assert.match(failed[0], /could not start: /);
  });
});
