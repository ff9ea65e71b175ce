/** Newline-delimited JSON (Ollama's streaming format), incrementally. */
import { decodeText, LineSplitter, type ByteSource } from "./lines.ts";

/** A line that is not JSON; carries a short excerpt of it for the error message. */
export class NdjsonParseError extends Error {
  readonly line: string;
  constructor(line: string, cause: unknown) {
    const excerpt = line.length > 120 ? `${line.slice(0, 120)}…` : line;
    super(`invalid JSON line in stream: ${excerpt}`, { cause });
    this.name = "NdjsonParseError";
    this.line = line;
  }
}

/** Push text in, get parsed values out; blank lines are skipped. */
export class NdjsonDecoder {
  private readonly lines = new LineSplitter();

  push(text: string): unknown[] {
    return this.parse(this.lines.push(text));
  }

  end(): unknown[] {
    return this.parse(this.lines.end());
  }

  private parse(lines: string[]): unknown[] {
    const out: unknown[] = [];
    for (const line of lines) {
      // Only lines that start with whitespace pay for a trim.
      if (line.length === 0 || (line.charCodeAt(0) <= 32 && line.trim().length === 0)) continue;
      try {
        out.push(JSON.parse(line));
      } catch (err) {
        throw new NdjsonParseError(line, err);
      }
    }
    return out;
  }
}

/** Every JSON value of a byte stream, in order. */
export async function* readNdjson(source: ByteSource): AsyncGenerator<unknown> {
  const decoder = new NdjsonDecoder();
  for await (const text of decodeText(source)) yield* decoder.push(text);
  yield* decoder.end();
}
