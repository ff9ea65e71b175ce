/**
 * Byte streams to text chunks to lines: the shared front end of the SSE and NDJSON parsers.
 * Work is per chunk (native indexOf/slice), never per character, so parsing keeps up with any
 * local model on one core.
 */

/** What providers read: a fetch body, or any async iterable of bytes or text (tests, benches). */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

const NO_LINES: string[] = [];

/**
 * Splits text into lines on LF, CRLF or a bare CR, wherever the chunk boundaries fall.
 * A line that spans many chunks is collected in parts and joined once, so a long line costs O(n).
 */
export class LineSplitter {
  private parts: string[] = [];
  /** The previous chunk ended in CR: a LF starting the next chunk belongs to that terminator. */
  private pendingCR = false;

  /** Complete lines (without terminators) finished by this chunk. */
  push(chunk: string): string[] {
    if (this.pendingCR) {
      this.pendingCR = false;
      if (chunk.charCodeAt(0) === 10) chunk = chunk.slice(1);
    }
    if (chunk.length === 0) return NO_LINES;
    if (chunk.includes("\r")) {
      if (chunk.charCodeAt(chunk.length - 1) === 13) this.pendingCR = true;
      chunk = chunk.replace(/\r\n?/g, "\n");
    }
    let nl = chunk.indexOf("\n");
    if (nl === -1) {
      this.parts.push(chunk);
      return NO_LINES;
    }
    const lines: string[] = [];
    if (this.parts.length > 0) {
      this.parts.push(chunk.slice(0, nl));
      lines.push(this.parts.join(""));
      this.parts.length = 0;
    } else {
      lines.push(chunk.slice(0, nl));
    }
    let start = nl + 1;
    while ((nl = chunk.indexOf("\n", start)) !== -1) {
      lines.push(chunk.slice(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) this.parts.push(chunk.slice(start));
    return lines;
  }

  /** The unterminated last line, if any (streams may end without a final newline). */
  end(): string[] {
    if (this.parts.length === 0) return NO_LINES;
    const last = this.parts.join("");
    this.parts.length = 0;
    return [last];
  }
}

/**
 * Decodes a byte source to text chunks; a UTF-8 sequence split across chunks is held until whole.
 * Stopping early (break, return, throw in the consumer) cancels a ReadableStream source, which
 * closes the HTTP connection.
 */
export async function* decodeText(source: ByteSource): AsyncGenerator<string> {
  const decoder = new TextDecoder("utf-8");
  if (source instanceof ReadableStream) {
    const reader = source.getReader();
    let finished = false;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        const text = decoder.decode(value, { stream: true });
        if (text.length > 0) yield text;
      }
      finished = true;
    } finally {
      if (!finished) await reader.cancel().catch(() => undefined);
      reader.releaseLock();
    }
  } else {
    for await (const chunk of source) {
      const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      if (text.length > 0) yield text;
    }
  }
  const tail = decoder.decode();
  if (tail.length > 0) yield tail;
}
