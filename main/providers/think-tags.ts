/**
 * Reasoning models served without a reasoning parser (llama.cpp --reasoning-format none, vLLM
 * without --reasoning-parser, LM Studio with reasoning separation off, Ollama without `think`)
 * put their reasoning inline as `<think>…</think>` at the start of the answer. This splits that
 * leading block out into thinking events. Only a block at the very start counts, so an answer
 * that merely mentions the tag is left alone; after it, text passes straight through.
 */
import type { StreamEvent } from "./types.ts";

const OPEN = "<think>";
const CLOSE = "</think>";

export class ThinkTagSplitter {
  private state: "start" | "thinking" | "after" | "text" = "start";
  private held = "";

  push(text: string, out: StreamEvent[]): void {
    if (this.state === "text") {
      out.push({ type: "text", text });
      return;
    }
    this.held += text;
    this.run(out, false);
  }

  end(out: StreamEvent[]): void {
    this.run(out, true);
  }

  private run(out: StreamEvent[], final: boolean): void {
    if (this.state === "start") {
      const t = this.held.trimStart();
      if (!final && OPEN.startsWith(t)) return; // "", "<", "<th"…: not decided yet
      if (!t.startsWith(OPEN)) return this.toText(this.held, out);
      this.held = t.slice(OPEN.length);
      this.state = "thinking";
    }
    if (this.state === "thinking") {
      const close = this.held.indexOf(CLOSE);
      if (close === -1) {
        // Hold back what could be the start of "</think>".
        let keep = final ? 0 : Math.min(CLOSE.length - 1, this.held.length);
        while (keep > 0 && !this.held.endsWith(CLOSE.slice(0, keep))) keep--;
        this.thinking(this.held.slice(0, this.held.length - keep), out);
        this.held = this.held.slice(this.held.length - keep);
        return;
      }
      this.thinking(this.held.slice(0, close), out);
      this.held = this.held.slice(close + CLOSE.length);
      this.state = "after";
    }
    if (this.state === "after") {
      // The blank lines between the block and the answer belong to neither.
      const t = this.held.trimStart();
      if (t === "" && !final) {
        this.held = "";
        return;
      }
      this.toText(t, out);
    }
  }

  private thinking(text: string, out: StreamEvent[]): void {
    if (text) out.push({ type: "thinking", text });
  }

  private toText(text: string, out: StreamEvent[]): void {
    this.state = "text";
    this.held = "";
    if (text) out.push({ type: "text", text });
  }
}
