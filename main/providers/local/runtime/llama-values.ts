/**
 * The node-llama-cpp classes the runtime's host code uses, from their own modules
 * (llama-lib.ts): imported after llama.cpp's binary has started loading (main.ts).
 */
import type * as NodeLlamaCpp from "node-llama-cpp";
import { llamaExport } from "./llama-lib.ts";

/** A class's instance type under the same name as the class (a value here). */
export type LlamaText = NodeLlamaCpp.LlamaText;

export const [
  InsufficientMemoryError,
  NoBinaryFoundError,
  LlamaChat,
  LlamaJsonSchemaValidationError,
  resolveChatWrapper,
  JinjaTemplateChatWrapper,
  LlamaText,
] = await Promise.all([
  llamaExport("InsufficientMemoryError"),
  llamaExport("NoBinaryFoundError"),
  llamaExport("LlamaChat"),
  llamaExport("LlamaJsonSchemaValidationError"),
  llamaExport("resolveChatWrapper"),
  llamaExport("JinjaTemplateChatWrapper"),
  llamaExport("LlamaText"),
]);
