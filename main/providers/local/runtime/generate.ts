/**
 * One chat call on a loaded model: node-llama-cpp's LlamaChat on the conversation's own context
 * sequence (it evaluates only the tokens after what the sequence already holds), streaming text
 * and thinking, tool calls through the model's own syntax or Islet's grammar-constrained text
 * protocol, and stats that show how much of the prompt came from the cache.
 */
import type {
  ChatModelFunctions,
  LlamaChatResponseChunk,
  LlamaContextSequence,
} from "node-llama-cpp";
import { LlamaChat, LlamaJsonSchemaValidationError } from "./llama-values.ts";
import type { ChatCall, FromRuntime, LoadedInfo } from "../protocol.ts";
import { Deltas } from "./deltas.ts";
import { conversationKey, toChatHistory } from "./history.ts";
import type { LoadedModel } from "./loaded-model.ts";
import { dropOmitted, toGrammarSchema } from "./tool-schema.ts";
import { hasNativeToolCalling, withNativeResults, withTextProtocol } from "./tool-syntax.ts";

/** The prompt does not fit the context (the engine compacts and retries). */
export class ContextFullError extends Error {
  constructor(contextSize: number) {
    super(`${contextSize} tokens`);
    this.name = "ContextFullError";
  }
}

type Send = (message: FromRuntime) => void;

/** Prompt size and how much of it was evaluated, read when the answer begins. */
class PromptMeter {
  private readonly sequence: LlamaContextSequence;
  private readonly start: ReturnType<LlamaContextSequence["tokenMeter"]["getState"]>;
  promptTokens = -1;
  evaluatedTokens = 0;
  constructor(sequence: LlamaContextSequence) {
    this.sequence = sequence;
    this.start = sequence.tokenMeter.getState();
  }
  /** Called on the first output: the context holds the prompt plus what was generated so far. */
  mark(): void {
    if (this.promptTokens >= 0) return;
    const used = this.sequence.tokenMeter.diff(this.start);
    this.promptTokens = Math.max(0, this.sequence.contextTokens.length - used.usedOutputTokens);
    this.evaluatedTokens = used.usedInputTokens;
  }
  outputTokens(): number {
    return this.sequence.tokenMeter.diff(this.start).usedOutputTokens;
  }
}

export async function generate(
  loaded: LoadedModel,
  call: ChatCall,
  signal: AbortSignal,
  send: Send,
  loadMs: number,
): Promise<void> {
  const started = performance.now();
  const native = call.toolSyntax === "auto" && hasNativeToolCalling(loaded.wrapper);
  const info: LoadedInfo = {
    file: loaded.load.file,
    contextSize: loaded.contextSize,
    trainContextSize: loaded.model.trainContextSize,
    chatWrapper: loaded.wrapper.wrapperName,
    toolSyntax: native ? "native" : "text",
    sequences: loaded.sequences,
    loadMs,
  };
  send({ type: "started", id: call.id, info });
  const wrapper = native
    ? withNativeResults(loaded.wrapper)
    : withTextProtocol(loaded.wrapper, call.tools);
  const functions: ChatModelFunctions = Object.fromEntries(
    call.tools.map((t) => [
      t.name,
      { description: t.description, params: toGrammarSchema(t.parameters) },
    ]),
  );
  const history = toChatHistory(call.system, call.messages);
  const { sequence, release } = await loaded.acquire(conversationKey(call.system, call.messages));
  const meter = new PromptMeter(sequence);
  const deltas = new Deltas(call.id, send, () => meter.mark());
  // A context shift means the prompt (or prompt plus answer) no longer fits: stop, never drop history.
  const stop = new AbortController();
  const both = AbortSignal.any([signal, stop.signal]);
  let overflow = false;
  let calls = 0;
  let callName = "";
  const chat = new LlamaChat({ contextSequence: sequence, chatWrapper: wrapper });
  try {
    const res = await chat
      .generateResponse(history, {
        ...(call.tools.length > 0
          ? {
              functions,
              onFunctionCallParamsChunk: (c) => {
                callName = c.functionName;
                deltas.progress();
              },
              onFunctionCall: (fc) => {
                deltas.flush();
                calls++;
                const tool = call.tools.find((t) => t.name === fc.functionName);
                const args = (fc.params ?? {}) as Record<string, unknown>;
                send({
                  type: "tool_call",
                  id: call.id,
                  name: fc.functionName,
                  arguments: tool ? dropOmitted(args, tool.parameters) : args,
                  raw: fc.raw,
                });
              },
            }
          : {}),
        signal: both,
        stopOnAbortSignal: true,
        maxTokens: call.maxTokens,
        temperature: call.temperature,
        seed: call.seed,
        ...(call.thinking === "off" ? { budgets: { thoughtTokens: 0 } } : {}),
        onResponseChunk: (chunk: LlamaChatResponseChunk) => {
          if (chunk.type === undefined) deltas.push("text", chunk.text);
          else if (chunk.segmentType === "thought") deltas.push("thinking", chunk.text);
        },
        contextShift: {
          strategy: ({ chatHistory }) => {
            overflow = true;
            stop.abort();
            return { chatHistory: [...chatHistory] };
          },
        },
      })
      .catch((err: unknown) => {
        if (both.aborted) return undefined;
        // What the grammar cannot say (a minimum, a pattern): such a call parsed but cannot be
        // used; the model gets the reason and calls again.
        if (err instanceof LlamaJsonSchemaValidationError && callName) {
          deltas.flush();
          calls++;
          send({
            type: "tool_call",
            id: call.id,
            name: callName,
            arguments: {},
            error: `the arguments for ${callName} are not valid (${err.message}) — call again with arguments that match its parameters`,
          });
          return undefined;
        }
        throw err;
      });
    deltas.flush();
    meter.mark();
    if (overflow && !deltas.started && !signal.aborted) {
      throw new ContextFullError(loaded.contextSize);
    }
    const reason = res?.metadata.stopReason;
    const stopReason = signal.aborted
      ? "aborted"
      : calls > 0
        ? "tool_calls"
        : overflow || reason === "maxTokens"
          ? "length"
          : "stop";
    const now = performance.now();
    send({
      type: "done",
      id: call.id,
      stopReason,
      stats: {
        promptTokens: meter.promptTokens,
        evaluatedTokens: meter.evaluatedTokens,
        outputTokens: meter.outputTokens(),
        firstTokenMs: (deltas.firstAt || now) - started,
        totalMs: now - started,
      },
    });
  } finally {
    deltas.flush();
    chat.dispose({ disposeSequence: false });
    release();
  }
}
