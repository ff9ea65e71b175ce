/**
 * How a model writes tool calls. A model whose chat template has its own function calling (Qwen,
 * Llama 3.1, Mistral, a Jinja template with tools…) uses it: node-llama-cpp reads and writes that
 * syntax. Any other model gets Islet's text protocol (text-tools.ts: the same prompt and the same
 * `<tool_call>{"name", "arguments"}</tool_call>` blocks), taught through node-llama-cpp's function
 * machinery so that, once a block opens, a grammar from the tool's schema writes the rest: every
 * call parses and has the right shape.
 */
import type { ChatWrapper, ChatWrapperSettings } from "node-llama-cpp";
import { JinjaTemplateChatWrapper, LlamaText } from "./llama-values.ts";
import { renderToolPrompt } from "../../text-tools.ts";
import type { WireTool } from "../protocol.ts";

/** Wrappers that speak the model family's own trained tool-call syntax. */
const NATIVE = new Set([
  "Qwen",
  "Llama 3.1",
  "Llama 3.2 lightweight",
  "Functionary",
  "Mistral",
  "DeepSeek",
  "Harmony",
  "Seed",
  "Gemma 4",
]);

export function hasNativeToolCalling(wrapper: ChatWrapper): boolean {
  if (wrapper instanceof JinjaTemplateChatWrapper) return wrapper.usingJinjaFunctionCallTemplate;
  return NATIVE.has(wrapper.wrapperName);
}

/** A tool's output as history carries it (rendered by the wrappers below). */
export class ToolOutput {
  readonly content: string;
  readonly isError: boolean;
  constructor(content: string, isError: boolean) {
    this.content = content;
    this.isError = isError;
  }
}

/** The opening the text protocol's prompt shows; the grammar takes over right after it. */
export const TEXT_CALL_OPENING = '<tool_call>\n{"name": "';

function textSettings(base: ChatWrapperSettings): ChatWrapperSettings {
  return {
    ...base,
    functions: {
      call: {
        optionalPrefixSpace: true,
        prefix: TEXT_CALL_OPENING,
        // What small models also write: no newline, no space after the colon.
        prefixAlternateMatches: [
          '<tool_call>\n{"name":"',
          '<tool_call>{"name": "',
          '<tool_call>{"name":"',
          '<tool_call> {"name": "',
        ],
        paramsPrefix: '", "arguments": ',
        suffix: "}\n</tool_call>",
        emptyCallParamsPlaceholder: {},
      },
      result: { prefix: "", suffix: "" },
      parallelism: {
        call: { sectionPrefix: "", betweenCalls: "\n", sectionSuffix: "\n" },
        result: { sectionPrefix: "", betweenResults: "\n", sectionSuffix: "\n" },
      },
    },
  };
}

function text(output: unknown): { content: string; isError: boolean } {
  return output instanceof ToolOutput
    ? output
    : { content: typeof output === "string" ? output : JSON.stringify(output), isError: false };
}

/** Overrides methods of one wrapper instance, keeping everything else it does. */
function decorate(base: ChatWrapper, overrides: Partial<ChatWrapper>): ChatWrapper {
  const wrapper = Object.create(base) as ChatWrapper;
  for (const [key, value] of Object.entries(overrides)) {
    Object.defineProperty(wrapper, key, { value, enumerable: true });
  }
  return wrapper;
}

/** The model's own syntax; a failed tool's output says so (its template has no error flag). */
export function withNativeResults(base: ChatWrapper): ChatWrapper {
  return decorate(base, {
    generateFunctionCallResult(name: string, params: unknown, result: unknown): LlamaText {
      const { content, isError } = text(result);
      return base.generateFunctionCallResult.call(
        this,
        name,
        params,
        isError && !/^error\b/i.test(content) ? `Error: ${content}` : content,
      );
    },
  });
}

/** Islet's text protocol on top of the model's own chat format. */
export function withTextProtocol(base: ChatWrapper, tools: WireTool[]): ChatWrapper {
  return decorate(base, {
    settings: textSettings(base.settings),
    generateAvailableFunctionsSystemText(): LlamaText {
      return LlamaText(
        renderToolPrompt(
          tools.map((t) => ({
            name: t.name,
            description: t.description,
            parameters: { type: "object", ...t.parameters },
          })),
        ),
      );
    },
    generateFunctionCallResult(name: string, _params: unknown, result: unknown): LlamaText {
      const { content, isError } = text(result);
      const attr = `name="${name.replace(/"/g, "'")}"${isError ? ' error="true"' : ""}`;
      return LlamaText(`<tool_result ${attr}>\n${content}\n</tool_result>`);
    },
  });
}
