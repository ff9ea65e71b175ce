/**
 * A tiny real MCP server over stdio for tests of notifications: `add_tool` registers a new tool
 * `extra_<n>` (the SDK then sends notifications/tools/list_changed), `say` sends its text as a
 * log message (notifications/message) and answers "said". It says "changing server ready" on stderr.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer(
  { name: "changing", version: "1.0.0" },
  { capabilities: { logging: {} } },
);
let added = 0;
server.registerTool("add_tool", { description: "Adds a tool named extra_<n>" }, () => {
  const n = ++added;
  server.registerTool(`extra_${n}`, { description: `Added tool ${n}` }, () => ({
    content: [{ type: "text", text: `extra ${n} here` }],
  }));
  return { content: [{ type: "text", text: `added extra_${n}` }] };
});
server.registerTool(
  "say",
  { description: "Logs its text", inputSchema: { text: z.string() } },
  async ({ text }) => {
    await server.sendLoggingMessage({ level: "warning", logger: "talker", data: text });
    return { content: [{ type: "text", text: "said" }] };
  },
);
console.error("changing server ready");
await server.connect(new StdioServerTransport());
