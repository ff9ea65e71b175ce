/**
 * The last lines an MCP server said: its stderr, the log messages it sends
 * (`notifications/message`) and transport errors, newest last. Shown by `islet mcp log` and the
 * app's MCP panel; bounded, so a chatty server costs a fixed amount of memory.
 */
import type { LoggingMessageNotification } from "@modelcontextprotocol/sdk/types.js";

const MAX_LINES = 200;

export class ServerLog {
  private lines: string[] = [];
  /** A stderr chunk may end mid-line: the rest waits for the next chunk. */
  private partial = "";

  stderr(chunk: string): void {
    const parts = (this.partial + chunk).split("\n");
    this.partial = parts.pop() ?? "";
    for (const p of parts) if (p.trim()) this.add(`stderr: ${p.trimEnd()}`);
  }

  message(params: LoggingMessageNotification["params"]): void {
    const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data);
    this.add(`${params.level}${params.logger ? ` ${params.logger}` : ""}: ${data}`);
  }

  add(line: string): void {
    this.lines.push(`${new Date().toISOString()} ${line}`);
    if (this.lines.length > MAX_LINES) this.lines.splice(0, this.lines.length - MAX_LINES);
  }

  tail(n = MAX_LINES): string[] {
    return this.lines.slice(-n);
  }
}
