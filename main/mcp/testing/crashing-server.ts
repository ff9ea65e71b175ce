/**
 * A tiny real MCP server over stdio for tests: `ping` answers "pong <pid>", `die` exits the process
 * (a server crashing mid-call), `count` reports how many times this script has started (it
 * appends to the file named by START_LOG), `slow` answers after a minute unless the client
 * cancels it (notifications/cancelled), which it records in START_LOG + ".cancelled".
 */
import { appendFileSync, readFileSync } from "node:fs";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const log = process.env.START_LOG;
if (log) appendFileSync(log, `${process.pid}\n`);

const server = new McpServer({ name: "crashing", version: "1.0.0" });
server.registerTool("ping", { description: "Answers pong and its pid" }, () => ({
  content: [{ type: "text", text: `pong ${process.pid}` }],
}));
server.registerTool("die", { description: "Exits the server" }, () => process.exit(3));
server.registerTool("starts", { description: "How many times the server started" }, () => ({
  content: [
    { type: "text", text: String(log ? readFileSync(log, "utf8").trim().split("\n").length : 0) },
  ],
}));
server.registerTool("slow", { description: "Answers after a minute" }, async (extra) => {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 60_000);
    extra.signal.addEventListener("abort", () => {
      clearTimeout(timer);
      if (log) appendFileSync(`${log}.cancelled`, `${String(extra.requestId)}\n`);
      resolve();
    });
  });
  return { content: [{ type: "text", text: "slow done" }] };
});
await server.connect(new StdioServerTransport());
