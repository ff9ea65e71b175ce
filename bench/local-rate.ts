/**
 * Tokens/s of an answer through the whole engine (a conversation, the runtime process, the tools
 * offered) vs node-llama-cpp's own generation loop (LlamaChat in this process) on the same model
 * and the same prompt: the engine's request is captured and rendered exactly as the runtime
 * renders it (its chat wrapper, history and tool grammars), so both evaluate the same tokens and
 * only the process boundary, the engine and the stream decoding differ. Both rates count from the
 * first text to the last (prompt reading is the other figure's subject).
 */
import { getLlama, LlamaChat, LlamaLogLevel, resolveChatWrapper } from "node-llama-cpp";
import type { AgentEvent } from "../main/turn/events.ts";
import { createEngine } from "../main/engine/bootstrap.ts";
import { LocalProvider } from "../main/providers/local/index.ts";
import { toChatHistory } from "../main/providers/local/runtime/history.ts";
import { toGrammarSchema } from "../main/providers/local/runtime/tool-schema.ts";
import { withTextProtocol } from "../main/providers/local/runtime/tool-syntax.ts";
import type { ChatRequest } from "../main/providers/types.ts";
import { formatProblem } from "../main/host/problem.ts";

const RUNS = 7;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Tokens/s between the first and the last text of an answer of `tokens` tokens. */
function rate(tokens: number, stamps: number[]): number {
  return (tokens - 1) / ((stamps.at(-1)! - stamps[0]) / 1000);
}

export interface RateResult {
  engine: number;
  raw: number;
  promptTokens: number;
  tools: number;
}

export async function measureRates(opts: {
  home: string;
  workdir: string;
  modelFile: string;
  tokens: number;
  threads: number;
  contextSize: number;
}): Promise<RateResult> {
  // What the engine asks the provider for (its first call of the turn), to replay it below.
  let request: ChatRequest | undefined;
  const chat = LocalProvider.prototype.chat;
  LocalProvider.prototype.chat = function (this: LocalProvider, req: ChatRequest) {
    // A copy: the engine goes on appending to its history array.
    request ??= { ...req, messages: structuredClone(req.messages), signal: undefined };
    return chat.call(this, req);
  };
  const engine = await createEngine({
    home: opts.home,
    workdir: opts.workdir,
    env: {},
    plugins: {},
    maxSteps: 1,
    warn: (problem) => console.error(formatProblem(problem)),
  });
  const llama = await getLlama({
    build: "never",
    gpu: false,
    maxThreads: opts.threads,
    logLevel: LlamaLogLevel.error,
  });
  const model = await llama.loadModel({ modelPath: opts.modelFile });
  const context = await model.createContext({ contextSize: opts.contextSize });
  const sequence = context.getSequence();

  /** One answer through the engine; its token rate. */
  let engineText = "";
  async function engineRun(): Promise<number> {
    const stamps: number[] = [];
    let text = "";
    const emit = (e: AgentEvent) => {
      if (e.type !== "assistant_delta") return;
      stamps.push(performance.now());
      text += e.text;
    };
    const conv = await engine.open({ emit });
    // The same first message each time: after the first run the cache holds the system prompt.
    await conv.submit("Write");
    await conv.close();
    engineText = text;
    return rate(opts.tokens, stamps);
  }

  /** The same answer by LlamaChat in this process, from the request the engine made. */
  let rawText = "";
  async function rawRun(req: ChatRequest): Promise<number> {
    const stamps: number[] = [];
    const functions = Object.fromEntries(
      req.tools.map((t) => [
        t.name,
        { description: t.description, params: toGrammarSchema(t.parameters) },
      ]),
    );
    const wrapper = withTextProtocol(resolveChatWrapper(model), req.tools);
    const llamaChat = new LlamaChat({ contextSequence: sequence, chatWrapper: wrapper });
    const res = await llamaChat.generateResponse(toChatHistory(req.system, req.messages), {
      functions,
      onTextChunk: () => stamps.push(performance.now()),
    });
    llamaChat.dispose({ disposeSequence: false });
    rawText = res.response;
    return rate(opts.tokens, stamps);
  }

  // Alternating runs, so both see the same load on a shared machine; the first of each loads
  // the model and reads the prompt.
  const engineRates: number[] = [];
  const rawRates: number[] = [];
  try {
    await engineRun();
    if (!request) throw new Error("the engine made no model call");
    await rawRun(request);
    for (let i = 0; i < RUNS; i++) {
      engineRates.push(await engineRun());
      rawRates.push(await rawRun(request));
    }
  } finally {
    await engine.close();
    LocalProvider.prototype.chat = chat;
  }
  const promptTokens = sequence.contextTokens.length;
  await model.dispose();
  if (rawText.trim() !== engineText.trim()) {
    throw new Error(
      `the answers differ: ${JSON.stringify(rawText.slice(0, 60))} vs ${JSON.stringify(engineText.slice(0, 60))}`,
    );
  }
  return {
    engine: median(engineRates),
    raw: median(rawRates),
    promptTokens,
    tools: request?.tools.length ?? 0,
  };
}
