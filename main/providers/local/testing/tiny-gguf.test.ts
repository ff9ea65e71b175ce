import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  getLlama,
  LlamaChatSession,
  LlamaLogLevel,
  readGgufFileInfo,
  type Token,
} from "node-llama-cpp";
import { CALL_OPENING, writeTinyGguf } from "./tiny-gguf.ts";

const dir = await mkdtemp(path.join(tmpdir(), "islet-tiny-gguf-"));
test.after(() => rm(dir, { recursive: true, force: true }));
// Few threads: the machine is shared.
const llama = await getLlama({
  build: "never",
  gpu: false,
  maxThreads: 1,
  logLevel: LlamaLogLevel.error,
});

test("tiny GGUF: a real GGUF header node-llama-cpp reads (llama, 2 layers, 64 wide, chat template)", async () => {
  const { file, bytes, vocab } = await writeTinyGguf(path.join(dir, "header.gguf"));
  assert.ok(bytes < 1_000_000, `${bytes} bytes`);
  const info = await readGgufFileInfo(file);
  assert.equal(info.metadata.general.architecture, "llama");
  assert.equal(info.architectureMetadata.block_count, 2);
  assert.equal(info.architectureMetadata.embedding_length, 64);
  assert.equal(info.metadata.tokenizer.ggml.tokens.length, vocab.length);
  assert.match(String(info.metadata.tokenizer.chat_template), /<\|im_start\|>/);
});

test("tiny GGUF: loads in about a second and streams an answer through its chat template", async () => {
  const { file } = await writeTinyGguf(path.join(dir, "chat.gguf"));
  const started = performance.now();
  const model = await llama.loadModel({ modelPath: file });
  const loadMs = performance.now() - started;
  assert.ok(loadMs < 5000, `loaded in ${Math.round(loadMs)} ms`);
  try {
    const context = await model.createContext({ contextSize: 1024 });
    const session = new LlamaChatSession({ contextSequence: context.getSequence() });
    assert.equal(session.chatWrapper.wrapperName, "ChatML");
    const chunks: string[] = [];
    const answer = await session.prompt("Hello world", {
      maxTokens: 24,
      onTextChunk: (t) => chunks.push(t),
    });
    assert.ok(chunks.length > 1, "streamed in several chunks");
    assert.equal(chunks.join(""), answer);
  } finally {
    await model.dispose();
  }
});

test("tiny GGUF: `follow` scripts the next token, `bias` shifts one token everywhere", async () => {
  const { file } = await writeTinyGguf(path.join(dir, "scripted.gguf"), {
    follow: { "\n": "<tool_call>", "<tool_call>": CALL_OPENING },
  });
  const model = await llama.loadModel({ modelPath: file });
  try {
    assert.deepEqual(
      model.tokenize(`<tool_call>${CALL_OPENING.replace("▁", " ")}`, true).length,
      2,
      "the opening of a tool call is one token",
    );
    const context = await model.createContext({ contextSize: 512 });
    const sequence = context.getSequence();
    const newline = model.tokenize("\n", false);
    const out: Token[] = [];
    for await (const token of sequence.evaluate(newline)) {
      out.push(token);
      if (out.length === 2) break;
    }
    assert.equal(model.detokenize(out, true), `<tool_call>\n{"name": "`);
  } finally {
    await model.dispose();
  }
  const silent = await writeTinyGguf(path.join(dir, "endless.gguf"), {
    bias: { "<|im_end|>": 40 },
  });
  const eager = await llama.loadModel({ modelPath: silent.file });
  try {
    const context = await eager.createContext({ contextSize: 512 });
    const session = new LlamaChatSession({ contextSequence: context.getSequence() });
    const answer = await session.prompt("Hello", { maxTokens: 20 });
    assert.equal(answer, "", "a +40 bias on the end token ends every answer at once");
  } finally {
    await eager.dispose();
  }
});
