/**
 * Permission requests through the real engine and real isolates: a request is asked once, by
 * plugin folder and by what was asked; the sandbox gets only what was granted; asking for more
 * asks again showing only what is new; a project plugin in an untrusted folder is not asked.
 */
import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import type { AnswerFor, QuestionKind, QuestionOf, QuestionPort } from "../../host/questions.ts";
import { startFakeOpenAI } from "../../providers/testing/index.ts";
import { startPluginHarness } from "../../engine/testing.ts";

/** Answers from a script and remembers every question. */
function scripted(answers: string[]): QuestionPort & { asked: QuestionOf<QuestionKind>[] } {
  const asked: QuestionOf<QuestionKind>[] = [];
  return {
    asked,
    async ask<K extends QuestionKind>(q: QuestionOf<K>): Promise<AnswerFor<K>> {
      asked.push(q);
      const answer = answers.shift();
      if (answer === undefined) throw new Error(`unexpected question ${JSON.stringify(q)}`);
      return answer as AnswerFor<K>;
    },
  };
}

const manifest = (hosts: string[]) =>
  `description: pings\npermissions:\n  network:\n${hosts.map((h) => `    - { host: "${h}", reason: "pings ${h}" }\n`).join("")}`;

const code = (origin: string) => `
  import { fs } from "@islet/sdk";
  export async function beforeChat() {
    let status;
    try { status = (await fetch("${origin}/ping")).status; } catch (e) { status = e.message; }
    await fs.writeFile(fs.dataDir + "/status.json", JSON.stringify(status));
  }`;

test("a grant is asked once, takes effect at once, and asking for more asks only what is new", async () => {
  const api = await startFakeOpenAI([]);
  const host = new URL(api.url).host;
  const questions = scripted(["grant"]);
  const h = await startPluginHarness({
    plugins: { pinger: { yaml: manifest([host]), code: code(api.origin) } },
    script: [{ text: ["a"] }, { text: ["b"] }, { text: ["c"] }],
    questions,
  });
  const status = async () =>
    JSON.parse(await readFile(path.join(h.home, "plugin-data", "pinger", "status.json"), "utf8"));
  try {
    assert.equal(questions.asked.length, 1);
    assert.deepEqual(questions.asked[0], {
      kind: "permissions",
      plugin: "pinger",
      dir: path.join(h.pluginsDir, "pinger"),
      requested: [{ kind: "network", target: host, reason: `pings ${host}` }],
      granted: [],
    });
    await h.conversation.submit("hi");
    assert.equal(await status(), 404, "the grant reached the running plugin (the server answered)");

    // The plugin now asks for one more host: only that one is asked about; "deny" is recorded.
    questions.asked.length = 0;
    const answers = scripted(["deny"]);
    Object.assign(questions, { ask: answers.ask });
    await h.write("pinger", { yaml: manifest([host, "evil.example.com"]), code: code(api.origin) });
    await h.engine.plugins!.reloadAll();
    await h.engine.askPluginPermissions();
    assert.equal(answers.asked.length, 1);
    const more = answers.asked[0] as QuestionOf<"permissions">;
    assert.deepEqual(
      more.requested.map((i) => i.target),
      ["evil.example.com"],
    );
    assert.deepEqual(
      more.granted.map((i) => i.target),
      [host],
    );
    await h.conversation.submit("again");
    assert.equal(await status(), 404, "what was granted still holds");

    // Answered both ways: nothing more is asked.
    await h.engine.plugins!.reloadAll();
    await h.engine.askPluginPermissions();
    assert.equal(answers.asked.length, 1);
    const grants = JSON.parse(await readFile(path.join(h.home, "grants.json"), "utf8"));
    const entry = Object.values(grants.plugins)[0] as { granted: string[]; denied: string[] };
    assert.deepEqual(entry.granted, [`network:${host}`]);
    assert.deepEqual(entry.denied, ["network:evil.example.com"]);
  } finally {
    await h.close();
    await api.close();
  }
});

test("refused: the plugin runs with default rights and is told which permission is missing", async () => {
  const api = await startFakeOpenAI([]);
  const host = new URL(api.url).host;
  const questions = scripted(["deny"]);
  const h = await startPluginHarness({
    plugins: { pinger: { yaml: manifest([host]), code: code(api.origin) } },
    script: [{ text: ["a"] }],
    questions,
  });
  try {
    await h.conversation.submit("hi");
    const status = JSON.parse(
      await readFile(path.join(h.home, "plugin-data", "pinger", "status.json"), "utf8"),
    );
    assert.match(status, /has no network permission for/);
    assert.equal(api.requests.length, 0);
    assert.ok(h.warnings.some((w) => /^pinger: not granted: network /.test(w)));
  } finally {
    await h.close();
    await api.close();
  }
});

test("a bash: condition runs its command only once granted, like exec", async () => {
  for (const [answer, runs] of [
    ["deny", false],
    ["once", true],
  ] as const) {
    const questions = scripted([answer]);
    const h = await startPluginHarness({
      plugins: {
        probe: {
          yaml: `description: probe\ncondition: "bash:touch ran-$PPID-marker && true"\n`,
          code: `export function beforeChat() { return { message: "hook ran", role: "user" }; }`,
        },
      },
      script: [{ text: ["a"] }],
      questions,
    });
    try {
      assert.equal(questions.asked.length, 1);
      assert.match(JSON.stringify(questions.asked[0]), /"target":"bash:touch ran-/);
      await h.conversation.submit("hi");
      const marked = (await readdir(h.workdir)).some((f) => f.startsWith("ran-"));
      assert.equal(marked, runs, `answer ${answer}`);
      assert.equal(h.of("injected").length > 0, runs, "the hook ran only when its condition could");
    } finally {
      await h.close();
    }
  }
});

test("WebAssembly asked for in plugin.yaml is there only once granted", async () => {
  for (const [answer, present] of [
    ["deny", false],
    ["grant", true],
  ] as const) {
    const questions = scripted([answer]);
    const h = await startPluginHarness({
      plugins: {
        wasm: {
          yaml: `description: wasm\npermissions:\n  wasm: { reason: "runs a parser compiled to wasm" }\n`,
          code: `export function beforeChat() { return { message: "wasm:" + typeof globalThis.WebAssembly, role: "user" }; }`,
        },
      },
      script: [{ text: ["a"] }],
      questions,
    });
    try {
      assert.equal(questions.asked.length, 1);
      await h.conversation.submit("hi");
      const injected = h.of("injected").map((e) => e.text);
      // QuickJS has no WebAssembly to give, granted or not.
      const expected =
        present && h.engine.plugins!.backend.name === "isolated-vm"
          ? "wasm:object"
          : "wasm:undefined";
      assert.ok(
        injected.some((t) => t.includes(expected)),
        `${answer}: ${injected.join(", ")}`,
      );
    } finally {
      await h.close();
    }
  }
});
