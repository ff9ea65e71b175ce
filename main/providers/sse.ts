/**
 * Server-sent events (the HTML living standard's event-stream format), incrementally.
 * Used by the OpenAI-compatible and Anthropic providers.
 */
import { decodeText, LineSplitter, type ByteSource } from "./lines.ts";

export interface SseEvent {
  /** The `event:` field; "message" when absent. */
  event: string;
  /** `data:` lines joined with "\n". */
  data: string;
  /** The last `id:` seen ("" when none). */
  id: string;
}

/**
 * Push text in, get finished events out. Synchronous so a provider can walk a whole network
 * chunk's events without an async hop per event.
 */
export class SseDecoder {
  private readonly lines = new LineSplitter();
  private data: string | null = null;
  private eventType = "";
  private lastId = "";

  push(text: string): SseEvent[] {
    const out: SseEvent[] = [];
    for (const line of this.lines.push(text)) this.line(line, out);
    return out;
  }

  /**
   * End of stream. The standard drops an event that was not terminated by a blank line; servers
   * that close right after `data: [DONE]\n` are common, so a pending event is still delivered.
   */
  end(): SseEvent[] {
    const out: SseEvent[] = [];
    for (const line of this.lines.end()) this.line(line, out);
    this.line("", out);
    return out;
  }

  private line(line: string, out: SseEvent[]): void {
    if (line.length === 0) {
      if (this.data !== null) {
        out.push({ event: this.eventType || "message", data: this.data, id: this.lastId });
      }
      this.data = null;
      this.eventType = "";
      return;
    }
    // Fast path: nearly every line a model server sends is "data: {...}".
    if (line.startsWith("data:")) {
      const value = line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5);
      this.data = this.data === null ? value : this.data + "\n" + value;
      return;
    }
    if (line.charCodeAt(0) === 58) return; // ":" comment / keep-alive
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === "event") this.eventType = value;
    else if (field === "data") this.data = this.data === null ? value : this.data + "\n" + value;
    else if (field === "id" && !value.includes("\0")) this.lastId = value;
    // "retry" and unknown fields are ignored, as the standard says.
  }
}

/** Every event of a byte stream, in order. */
export async function* readSse(source: ByteSource): AsyncGenerator<SseEvent> {
  const decoder = new SseDecoder();
  for await (const text of decodeText(source)) yield* decoder.push(text);
  yield* decoder.end();
}
