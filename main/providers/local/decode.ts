/**
 * The runtime's events as provider stream events: thinking from the model's thought segments or a
 * leading `<think>` block (think-tags.ts); with the text protocol, calls the grammar did not catch
 * (a model writing a variant of the opening) are still read by the text parser, as for any
 * provider in text mode.
 */
import { newCallId } from "../common.ts";
import { ThinkTagSplitter } from "../think-tags.ts";
import { ToolCallTextParser, type ParsedPiece } from "../text-tool-parser.ts";
import { INVALID_TOOL_NAME, type StreamEvent } from "../types.ts";
import type { LoadedInfo } from "./protocol.ts";
import type { CallEvent } from "./runtime-process.ts";

export interface DecoderHooks {
  started(info: LoadedInfo): void;
  /** A grammar-made call's exact text, to render the same tokens next turn. */
  raw(callId: string, raw: unknown): void;
}

export class LocalDecoder {
  private readonly think = new ThinkTagSplitter();
  private parser: ToolCallTextParser | undefined;
  private calls = 0;
  private readonly names: string[];
  private readonly hooks: DecoderHooks;

  constructor(toolNames: string[], hooks: DecoderHooks) {
    this.names = toolNames;
    this.hooks = hooks;
  }

  /** The model began writing a tool result itself: the answer ends here. */
  get stopped(): boolean {
    return this.parser?.stopped ?? false;
  }

  /** Appends the events for one runtime event; true once the call is done. */
  push(ev: CallEvent, out: StreamEvent[]): boolean {
    switch (ev.type) {
      case "started":
        this.hooks.started(ev.info);
        if (ev.info.toolSyntax === "text" && this.names.length > 0) {
          this.parser = new ToolCallTextParser(this.names);
        }
        return false;
      case "delta":
        if (ev.thinking) out.push({ type: "thinking", text: ev.thinking });
        if (ev.text) {
          const split: StreamEvent[] = [];
          this.think.push(ev.text, split);
          this.pass(split, out);
        }
        return false;
      case "tool_call": {
        this.calls++;
        const call = { id: newCallId(), name: ev.name, arguments: ev.arguments };
        if (ev.raw !== undefined) this.hooks.raw(call.id, ev.raw);
        out.push(
          ev.error !== undefined
            ? { type: "tool_call", call, error: ev.error }
            : { type: "tool_call", call },
        );
        return false;
      }
      case "done":
        this.finish(out, ev.stats.promptTokens, ev.stats.outputTokens, ev.stopReason);
        return true;
      case "failed":
        return false;
    }
  }

  /** The closing events: what the splitter and parser still hold, usage, done. */
  finish(out: StreamEvent[], inputTokens: number, outputTokens: number, reason: string): void {
    const split: StreamEvent[] = [];
    this.think.end(split);
    this.pass(split, out);
    if (this.parser) for (const p of this.parser.end()) out.push(this.piece(p));
    out.push({ type: "usage", inputTokens, outputTokens });
    const stopReason = this.calls > 0 ? "tool_calls" : reason === "aborted" ? "stop" : reason;
    out.push({ type: "done", stopReason });
  }

  private pass(events: StreamEvent[], out: StreamEvent[]): void {
    for (const ev of events) {
      if (ev.type !== "text" || !this.parser) out.push(ev);
      else for (const p of this.parser.push(ev.text)) out.push(this.piece(p));
    }
  }

  private piece(p: ParsedPiece): StreamEvent {
    if (p.type === "text") return { type: "text", text: p.text };
    this.calls++;
    const call = { id: newCallId(), name: p.name || INVALID_TOOL_NAME, arguments: p.arguments };
    return p.error ? { type: "tool_call", call, error: p.error } : { type: "tool_call", call };
  }
}
