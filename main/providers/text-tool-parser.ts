/**
 * Streaming parser for tool calls written as text (models without native tool calling).
 *
 * Recognized, in order of intent:
 *  - `<tool_call>{"name": …, "arguments": {…}}</tool_call>` (the protocol we prompt for; also the
 *    Qwen/Hermes format many local models are trained on), optionally inside a ``` fence and with
 *    a ```json fence inside the block. Any tool name is accepted: the model clearly meant a call.
 *  - a ```json fence (or bare JSON at the very start of the answer) holding exactly such an
 *    object, but only for a known tool name, so example JSON in an answer stays text.
 * Text that could still turn into a call is held back; everything else streams at once.
 * After a call, a `<tool_result` the model starts inventing ends the answer (`stopped`).
 */

import { parseBody, scanJson, type Reading } from "./text-tool-json.ts";

export type ParsedPiece =
  | { type: "text"; text: string }
  /** `error` set: the block could not be read; name is "" when unknown. */
  | { type: "call"; name: string; arguments: Record<string, unknown>; error?: string };

const OPEN = "<tool_call>";
const CLOSE = "</tool_call>";
const RESULT = "<tool_result";
const JSON_INFOS = new Set(["", "json", "json5", "jsonc", "tool_call", "tool", "javascript", "js"]);
const CALL_START = /^\{\s*"(?:name|tool|tool_name|function|type)"\s*:/;
const CALL_PARTIAL = /^\{\s*(?:"[a-z_]*"?\s*)?$/;
const USAGE = 'write it exactly as <tool_call>{"name": "ToolName", "arguments": {…}}</tool_call>';

type Mode = "start" | "lead" | "text" | "fenceHead" | "fenceJson" | "block" | "afterBlock";

export class ToolCallTextParser {
  private buf = "";
  private mode: Mode = "start";
  private lineStart = true;
  /** Inside a code fence that is being shown as text (its closing fence is text too). */
  private inCode = false;
  /** The current tag block sits inside a ``` fence, whose closing line is dropped with it. */
  private fenced = false;
  private headLen = 0;
  private out: ParsedPiece[] = [];
  private final = false;
  calls = 0;
  /** The model started writing a tool result itself: the rest of the answer is discarded. */
  stopped = false;
  private readonly known: Set<string>;

  constructor(toolNames: Iterable<string>) {
    this.known = new Set(toolNames);
  }

  push(text: string): ParsedPiece[] {
    if (this.stopped) return [];
    this.buf += text;
    return this.run();
  }

  end(): ParsedPiece[] {
    this.final = true;
    return this.stopped ? [] : this.run();
  }

  private run(): ParsedPiece[] {
    while (!this.stopped && this.step()) {
      /* each step consumes input or changes mode */
    }
    const out = this.out;
    this.out = [];
    return out;
  }

  /** Removes `n` chars from the buffer, as text or silently. */
  private take(n: number, show: boolean): void {
    if (n <= 0) return;
    const s = this.buf.slice(0, n);
    this.buf = this.buf.slice(n);
    this.lineStart = s.endsWith("\n");
    if (!show) return;
    const last = this.out[this.out.length - 1];
    if (last?.type === "text") last.text += s;
    else this.out.push({ type: "text", text: s });
  }

  private call(reading: Reading): void {
    this.calls++;
    if (reading.ok) this.out.push({ type: "call", name: reading.name, arguments: reading.args });
    else {
      const error = `could not read your tool call: ${reading.why}; ${USAGE}`;
      this.out.push({ type: "call", name: reading.name, arguments: {}, error });
    }
  }

  private step(): boolean {
    switch (this.mode) {
      case "start":
        return this.stepStart();
      case "lead":
        return this.stepLead();
      case "text":
        return this.stepText();
      case "fenceHead":
        return this.stepFenceHead();
      case "fenceJson":
        return this.stepFenceJson();
      case "block":
        return this.stepBlock();
      case "afterBlock":
        return this.stepAfterBlock();
    }
  }

  private stepStart(): boolean {
    const t = this.buf.trimStart();
    if (t === "") {
      if (this.final) this.take(this.buf.length, true);
      return false;
    }
    this.mode = t[0] === "{" ? "lead" : "text";
    return true;
  }

  /** The answer starts with "{": a bare JSON call (Llama-style) or just JSON text. */
  private stepLead(): boolean {
    const t = this.buf.trimStart();
    if (!CALL_START.test(t)) {
      if (CALL_PARTIAL.test(t) && !this.final) return false;
      this.mode = "text";
      return true;
    }
    const end = scanJson(t, 0);
    if (end === -1 && !this.final) return false;
    const { reading } = parseBody(end === -1 ? t : t.slice(0, end));
    this.mode = "text";
    if (!this.known.has(reading.name)) return true; // not a call of ours: show it
    this.take(this.buf.length - t.length + (end === -1 ? t.length : end), false);
    this.call(reading);
    return true;
  }

  private stepText(): boolean {
    const buf = this.buf;
    const tag = buf.indexOf(OPEN);
    const fence = this.findFence();
    const result = this.calls > 0 ? buf.indexOf(RESULT) : -1;
    let next = -1;
    for (const i of [tag, fence, result]) if (i !== -1 && (next === -1 || i < next)) next = i;
    if (next === -1) {
      this.take(this.final ? buf.length : buf.length - this.holdBack(), true);
      return false;
    }
    this.take(next, true);
    if (next === result) {
      this.stopped = true;
      this.buf = "";
      return false;
    }
    if (next === tag) {
      this.take(OPEN.length, false);
      this.mode = "block";
      this.fenced = false;
    } else {
      this.mode = "fenceHead";
    }
    return true;
  }

  /** Index of the first ``` that starts a line (after optional indentation), or -1. */
  private findFence(): number {
    const re = /(^|\n)[ \t]*```/g;
    for (let m = re.exec(this.buf); m; m = re.exec(this.buf)) {
      if (m.index === 0 && m[1] === "" && !this.lineStart) continue;
      return m.index + m[1].length;
    }
    return -1;
  }

  /** How many trailing chars could begin a marker and must wait for more text. */
  private holdBack(): number {
    const buf = this.buf;
    let keep = 0;
    const markers = this.calls > 0 ? [OPEN, RESULT] : [OPEN];
    for (const marker of markers) {
      for (let k = Math.min(marker.length - 1, buf.length); k > keep; k--) {
        if (buf.endsWith(marker.slice(0, k))) {
          keep = k;
          break;
        }
      }
    }
    const fence = /(^|\n)([ \t]*`{0,2})$/.exec(buf);
    if (
      fence &&
      fence[2].length > keep &&
      (fence.index > 0 || fence[1] === "\n" || this.lineStart)
    ) {
      keep = fence[2].length;
    }
    return keep;
  }

  /** At a ``` line: a fenced tool call, a JSON fence that may be one, or a code block to show. */
  private stepFenceHead(): boolean {
    const head = /^[ \t]*`{3,}([^\n`]*)\n/.exec(this.buf);
    if (!head) {
      if (this.final || this.buf.length > 200 || /^[ \t]*`{3,}[^\n`]*`/.test(this.buf)) {
        const nl = this.buf.indexOf("\n");
        this.take(nl === -1 ? this.buf.length : nl + 1, true);
        this.mode = "text";
        return true;
      }
      return false;
    }
    const headLen = head[0].length;
    if (this.inCode) {
      this.take(headLen, true);
      this.inCode = false;
      this.mode = "text";
      return true;
    }
    const rest = this.buf.slice(headLen);
    const t = rest.trimStart();
    if ((t === "" || (OPEN.startsWith(t) && t.length < OPEN.length)) && !this.final) return false;
    if (t.startsWith(OPEN)) {
      this.take(headLen + rest.length - t.length + OPEN.length, false);
      this.mode = "block";
      this.fenced = true;
      return true;
    }
    if (t[0] === "{" && JSON_INFOS.has(head[1].trim().toLowerCase())) {
      this.headLen = headLen;
      this.mode = "fenceJson";
      return true;
    }
    this.take(headLen, true);
    this.inCode = true;
    this.mode = "text";
    return true;
  }

  /** Inside ```json {…: held until the fence closes, then a call (known tool) or text. */
  private stepFenceJson(): boolean {
    const content = this.buf.slice(this.headLen).trimStart();
    if (!CALL_START.test(content) && !(CALL_PARTIAL.test(content) && !this.final)) {
      this.take(this.headLen, true);
      this.inCode = true;
      this.mode = "text";
      return true;
    }
    // The closing line counts once complete, so its newline goes with it.
    const close = this.final ? /\n[ \t]*`{3,}[^\n]*(?:\n|$)/g : /\n[ \t]*`{3,}[^\n]*\n/g;
    close.lastIndex = this.headLen;
    const m = close.exec(this.buf);
    if (!m && !this.final) return false;
    const end = m ? m.index + m[0].length : this.buf.length;
    const { reading } = parseBody(this.buf.slice(this.headLen, m ? m.index : this.buf.length));
    this.mode = "text";
    if (!this.known.has(reading.name)) {
      this.take(end, true);
      return true;
    }
    this.take(end, false);
    this.call(reading);
    return true;
  }

  /** After <tool_call>: held until </tool_call> (or the next <tool_call>, or the end). */
  private stepBlock(): boolean {
    const close = this.buf.indexOf(CLOSE);
    const reopen = this.buf.indexOf(OPEN);
    let bodyEnd: number;
    let skip: number;
    if (close !== -1 && (reopen === -1 || close < reopen)) {
      bodyEnd = close;
      skip = CLOSE.length;
    } else if (reopen !== -1) {
      bodyEnd = reopen;
      skip = 0;
    } else if (this.final) {
      bodyEnd = this.buf.length;
      skip = 0;
    } else {
      return false;
    }
    const { reading, rest } = parseBody(this.buf.slice(0, bodyEnd));
    this.take(bodyEnd + skip, false);
    this.call(reading);
    // An unclosed block's prose after the JSON is still part of the answer.
    if (skip === 0 && rest.trim()) this.buf = rest.trimStart() + this.buf;
    this.mode = this.fenced ? "afterBlock" : "text";
    return true;
  }

  /** After a fenced block: drop the closing ``` line, or read the next block in the same fence. */
  private stepAfterBlock(): boolean {
    const t = this.buf.trimStart();
    const lead = this.buf.length - t.length;
    if ((t === "" || (t.length < 3 && "```".startsWith(t))) && !this.final) return false;
    if (t.startsWith("```")) {
      const nl = t.indexOf("\n");
      if (nl === -1 && !this.final) return false;
      this.take(lead + (nl === -1 ? t.length : nl + 1), false);
    } else if (t.startsWith(OPEN)) {
      this.take(lead + OPEN.length, false);
      this.mode = "block";
      return true;
    } else if (OPEN.startsWith(t) && !this.final) {
      return false;
    }
    this.fenced = false;
    this.mode = "text";
    return true;
  }
}
