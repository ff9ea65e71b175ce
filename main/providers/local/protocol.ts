/**
 * The message channel between the engine and the local runtime process (Node IPC, JSON). Both
 * sides parse every message with these schemas: a message that does not fit is a broken runtime,
 * never a guess. One request id per chat call; the runtime streams events for it and ends it with
 * `done` or `failed`.
 */
import { z } from "zod";

const json = z.record(z.string(), z.unknown());

export const wireMessage = z.object({
  role: z.enum(["system", "user", "assistant", "tool"]),
  content: z.string(),
  thinking: z.string().optional(),
  toolCalls: z
    .array(
      z.object({
        id: z.string(),
        name: z.string(),
        arguments: json,
        /** The call exactly as the model wrote it (node-llama-cpp's LlamaTextJSON): kept so the
         * next turn renders the same tokens and reuses the cache. */
        raw: z.unknown().optional(),
      }),
    )
    .optional(),
  toolCallId: z.string().optional(),
  toolName: z.string().optional(),
  isError: z.boolean().optional(),
});
export type WireMessage = z.infer<typeof wireMessage>;

export const wireTool = z.object({
  name: z.string(),
  description: z.string(),
  parameters: json,
});
export type WireTool = z.infer<typeof wireTool>;

export const modelLoad = z.object({
  /** Absolute path of the GGUF file. */
  file: z.string(),
  /** Tokens per conversation, already fitted to the model and the machine (fitContextSize in main/models/memory.ts). */
  contextSize: z.number().int().positive(),
});
export type ModelLoad = z.infer<typeof modelLoad>;

export const chatCall = z.object({
  type: z.literal("chat"),
  id: z.number().int(),
  model: modelLoad,
  system: z.string(),
  messages: z.array(wireMessage),
  tools: z.array(wireTool),
  /** "text": Islet's text protocol with grammar-constrained calls even if the template has tools. */
  toolSyntax: z.enum(["auto", "text"]),
  thinking: z.enum(["off", "low", "medium", "high"]).optional(),
  maxTokens: z.number().int().positive().optional(),
  temperature: z.number().min(0).optional(),
  seed: z.number().int().optional(),
});
export type ChatCall = z.infer<typeof chatCall>;

export const toRuntime = z.discriminatedUnion("type", [
  chatCall,
  z.object({ type: z.literal("stop"), id: z.number().int() }),
]);
export type ToRuntime = z.infer<typeof toRuntime>;

/** What the runtime learned loading the model (once per call, for stats and the context meter). */
export const loadedInfo = z.object({
  file: z.string(),
  contextSize: z.number().int(),
  trainContextSize: z.number().int(),
  /** node-llama-cpp's chat wrapper ("Qwen", "ChatML", "JinjaTemplate"…). */
  chatWrapper: z.string(),
  /** "native": the model's own function calling; "text": Islet's protocol with a grammar. */
  toolSyntax: z.enum(["native", "text"]),
  /** Conversations whose cache is kept at once. */
  sequences: z.number().int(),
  /** 0 when the model was already loaded. */
  loadMs: z.number(),
});
export type LoadedInfo = z.infer<typeof loadedInfo>;

export const failureKind = z.enum(["memory", "model", "context", "binary", "internal"]);
export type FailureKind = z.infer<typeof failureKind>;

export const turnStats = z.object({
  /** Tokens of the rendered conversation this call started from. */
  promptTokens: z.number().int(),
  /** Of those, evaluated now (the rest came from the cache of an earlier turn). */
  evaluatedTokens: z.number().int(),
  outputTokens: z.number().int(),
  firstTokenMs: z.number(),
  totalMs: z.number(),
});
export type TurnStats = z.infer<typeof turnStats>;

export const fromRuntime = z.discriminatedUnion("type", [
  /** The runtime's process is up and node-llama-cpp's binary is loaded. */
  z.object({
    type: z.literal("ready"),
    pid: z.number().int(),
    gpu: z.string(),
    /** The llama.cpp binary it loaded, for the next runtime to load without testing it again. */
    binary: z.object({ addon: z.string(), metadata: z.string() }).optional(),
  }),
  /** Every HEARTBEAT_MS while alive: silence means the process is hung. */
  z.object({ type: z.literal("heartbeat") }),
  z.object({ type: z.literal("started"), id: z.number().int(), info: loadedInfo }),
  z.object({
    type: z.literal("delta"),
    id: z.number().int(),
    text: z.string(),
    thinking: z.string(),
  }),
  z.object({
    type: z.literal("tool_call"),
    id: z.number().int(),
    name: z.string(),
    arguments: json,
    raw: z.unknown().optional(),
    /** The call could not be used (see StreamEvent's tool_call.error): answered, never run. */
    error: z.string().optional(),
  }),
  z.object({
    type: z.literal("done"),
    id: z.number().int(),
    stopReason: z.enum(["stop", "length", "tool_calls", "aborted"]),
    stats: turnStats,
  }),
  z.object({
    type: z.literal("failed"),
    id: z.number().int(),
    kind: failureKind,
    message: z.string(),
  }),
]);
export type FromRuntime = z.infer<typeof fromRuntime>;

export { HEARTBEAT_MS } from "./heartbeat.ts";
