import { test } from "node:test";
import assert from "node:assert/strict";
import { ToolCallTextParser, type ParsedPiece } from "./text-tool-parser.ts";
import { renderToolPrompt, toTextProtocolMessages, withTextToolProtocol } from "./text-tools.ts";
import { OllamaProvider } from "./ollama.ts";
import { startFakeOllama } from "./testing/fake-ollama.ts";
import { collect, READ_TOOL, request, sampleConversation } from "./testing/collect.ts";
import type { StreamEvent } from "./types.ts";

type Call = Exclude<ParsedPiece, { type: "text" }>;

/** Feeds `text` in the given pieces; returns the shown text, the calls, and every text piece. */
function parse(pieces: string[], tools = ["Read", "Bash"]) {
  const p = new ToolCallTextParser(tools);
  const out: ParsedPiece[] = [];
  for (const piece of pieces) out.push(...p.push(piece));
  out.push(...p.end());
  const texts = out.flatMap((x) => (x.type === "text" ? [x.text] : []));
  const calls = out.filter((x): x is Call => x.type === "call");
  return { text: texts.join(""), texts, calls, stopped: p.stopped };
}

/** Every 2-way split plus one-char-at-a-time: results must not depend on chunking. */
function everySplit(text: string): string[][] {
  const out: string[][] = [[text], Array.from(text)];
  for (let i = 1; i < text.length; i++) out.push([text.slice(0, i), text.slice(i)]);
  return out;
}

function check(
  text: string,
  expected: { text: string; calls: Omit<Call, "type">[] },
  tools?: string[],
) {
  for (const pieces of everySplit(text)) {
    const got = parse(pieces, tools);
    assert.equal(got.text, expected.text, `text for split ${JSON.stringify(pieces.slice(0, 2))}`);
    assert.deepEqual(
      got.calls.map(({ type: _t, ...c }) => c),
      expected.calls,
      `calls for split ${JSON.stringify(pieces.slice(0, 2))}`,
    );
    if (expected.calls.length > 0) {
      for (const t of got.texts) assert.doesNotMatch(t, /<tool_call|<\/tool_call|"arguments"/);
    }
  }
}

test("text tools: a tag block is parsed and never shown, however it is split", () => {
  check(
    'I will read it.\n<tool_call>\n{"name": "Read", "arguments": {"path": "a<b>.txt"}}\n</tool_call>',
    {
      text: "I will read it.\n",
      calls: [{ name: "Read", arguments: { path: "a<b>.txt" } }],
    },
  );
});

test("text tools: several blocks, fenced blocks and json fences inside blocks", () => {
  check(
    'Two calls:\n```xml\n<tool_call>\n{"name":"Read","arguments":{"path":"a"}}\n</tool_call>\n<tool_call>\n```json\n{"name":"Bash","arguments":{"command":"ls"}}\n```\n</tool_call>\n```\n',
    {
      text: "Two calls:\n",
      calls: [
        { name: "Read", arguments: { path: "a" } },
        { name: "Bash", arguments: { command: "ls" } },
      ],
    },
  );
});

test("text tools: a ```json fence with a known tool call is a call; other code stays text", () => {
  check('Sure.\n```json\n{"name": "Read", "parameters": {"path": "x"}}\n```\n', {
    text: "Sure.\n",
    calls: [{ name: "Read", arguments: { path: "x" } }],
  });
  const prose =
    'Example config:\n```json\n{"name": "my-app", "version": "1.0.0"}\n```\nand code:\n```python\nprint("<tool")\n```\nDone `x` ``y``.';
  check(prose, { text: prose, calls: [] });
});

test("text tools: bare JSON at the start (Llama style), only for known tools", () => {
  check('{"name": "Bash", "arguments": "{\\"command\\": \\"pwd\\"}"}', {
    text: "",
    calls: [{ name: "Bash", arguments: { command: "pwd" } }],
  });
  const json = '{"name": "Unknown", "arguments": {}}';
  check(json, { text: json, calls: [] });
  check('{"status": "ok"}', { text: '{"status": "ok"}', calls: [] });
});

test("text tools: malformed blocks become calls with an error", () => {
  const bad = parse(['<tool_call>{"name": "Read", "arguments": {"path": "a"</tool_call>ok']);
  assert.equal(bad.calls.length, 1);
  assert.equal(bad.calls[0].name, "Read");
  assert.deepEqual(bad.calls[0].arguments, {});
  assert.match(bad.calls[0].error ?? "", /invalid JSON.*<tool_call>\{"name"/);
  assert.equal(bad.text, "ok");

  const noName = parse(['<tool_call>{"arguments": {}}</tool_call>']);
  assert.deepEqual(
    [noName.calls[0].name, /no "name"/.test(noName.calls[0].error ?? "")],
    ["", true],
  );

  const notObject = parse(['<tool_call>{"name": "Read", "arguments": [1]}</tool_call>']);
  assert.match(notObject.calls[0].error ?? "", /must be a JSON object/);
});

test("text tools: an unclosed block at the end still counts; prose after it is kept", () => {
  check('<tool_call>\n{"name": "Read", "arguments": {"path": "z"}}\n\nThen I will summarize.', {
    text: "Then I will summarize.",
    calls: [{ name: "Read", arguments: { path: "z" } }],
  });
});

test("text tools: a tool result the model invents ends the answer", () => {
  const got = parse([
    '<tool_call>{"name":"Read","arguments":{"path":"a"}}</tool_call>\n<tool_res',
    'ult name="Read">fake</tool_result>',
  ]);
  assert.equal(got.calls.length, 1);
  assert.equal(got.stopped, true);
  assert.equal(got.text.includes("fake"), false);
});

test("text tools: plain text streams with nothing held except a possible marker start", () => {
  const p = new ToolCallTextParser(["Read"]);
  assert.deepEqual(p.push("Hello wor"), [{ type: "text", text: "Hello wor" }]);
  assert.deepEqual(p.push("ld <tool"), [{ type: "text", text: "ld " }]);
  assert.deepEqual(p.push("s are fun\n``"), [{ type: "text", text: "<tools are fun\n" }]);
  assert.deepEqual(p.push("`sh\necho"), [{ type: "text", text: "```sh\necho" }]);
  assert.deepEqual(p.end(), []);
});

test("text tools: prompt lists tools with schemas and the exact convention", () => {
  const prompt = renderToolPrompt([READ_TOOL]);
  assert.match(
    prompt,
    /<tool_call>\n\{"name": "TOOL_NAME", "arguments": \{"ARGUMENT_NAME": "value"\}\}\n<\/tool_call>/,
  );
  assert.match(prompt, /### Read\nRead a file\.\nParameters \(JSON Schema\): \{"type":"object"/);
  assert.match(
    prompt,
    /Example:\n\n<tool_call>\n\{"name":"Read","arguments":\{"path":"…"\}\}\n<\/tool_call>/,
  );
});

test("text tools: history re-renders calls as blocks and results as one user message", () => {
  const msgs = toTextProtocolMessages(sampleConversation());
  assert.deepEqual(
    msgs.map((m) => [m.role, m.content]),
    [
      ["user", "Read a and b"],
      [
        "assistant",
        'Reading both.\n\n<tool_call>\n{"name":"Read","arguments":{"path":"a"}}\n</tool_call>\n<tool_call>\n{"name":"Read","arguments":{"path":"b"}}\n</tool_call>',
      ],
      [
        "user",
        '<tool_result name="Read">\ncontents of a\n</tool_result>\n<tool_result name="Read" error="true">\nno such file: b\n</tool_result>',
      ],
      ["assistant", "a says hi; b is missing."],
      ["user", "Thanks"],
    ],
  );
  assert.equal(msgs[1].toolCalls, undefined);
});

test("text tools: wrapped Ollama provider over the wire", async () => {
  const answer =
    'Let me check.\n<tool_call>\n{"name": "Read", "arguments": {"path": "notes.md"}}\n</tool_call>';
  const srv = await startFakeOllama([
    { text: answer.match(/.{1,5}/gs) ?? [], usage: { input: 50, output: 20 } },
  ]);
  try {
    const p = withTextToolProtocol(new OllamaProvider({ baseUrl: srv.url }));
    const events = await collect(
      p.chat(request("tiny:1b", { messages: sampleConversation(), tools: [READ_TOOL] })),
    );
    const text = events.flatMap((e) => (e.type === "text" ? [e.text] : [])).join("");
    assert.equal(text, "Let me check.\n");
    const call = events.find(
      (e): e is Extract<StreamEvent, { type: "tool_call" }> => e.type === "tool_call",
    );
    assert.deepEqual([call?.call.name, call?.call.arguments], ["Read", { path: "notes.md" }]);
    assert.match(call?.call.id ?? "", /^call_/);
    assert.deepEqual(events.slice(-2), [
      { type: "usage", inputTokens: 50, outputTokens: 20 },
      { type: "done", stopReason: "tool_calls" },
    ]);
    const body = srv.chatRequests[0].body as {
      messages: { role: string; content: string }[];
      tools?: unknown;
    };
    assert.equal(body.tools, undefined, "no native tools sent");
    assert.match(body.messages[0].content, /^You are terse\.\n\n# Tools\n/);
    assert.deepEqual(
      body.messages.map((m) => m.role),
      ["system", "user", "assistant", "user", "assistant", "user"],
    );
  } finally {
    await srv.close();
  }
});

test("text tools: any text without a call comes out unchanged, however it is split", () => {
  const alphabet = [
    "a",
    "b ",
    " ",
    "\n",
    "<",
    "`",
    "```",
    "```json\n",
    "{",
    "}",
    '"',
    ":",
    "tool",
    "<tool",
    "name",
    "\t",
  ];
  let seed = 7;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let round = 0; round < 300; round++) {
    let text = "";
    const len = 1 + rand(40);
    for (let i = 0; i < len; i++) text += alphabet[rand(alphabet.length)];
    const pieces: string[] = [];
    for (let at = 0; at < text.length;) {
      const n = 1 + rand(6);
      pieces.push(text.slice(at, at + n));
      at += n;
    }
    const got = parse(pieces);
    assert.equal(got.calls.length, 0, JSON.stringify(text));
    assert.equal(got.text, text, JSON.stringify(pieces));
  }
});
