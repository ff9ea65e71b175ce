/**
 * A tiny real MCP server over stdio whose tools come from its environment, for the naming and
 * trust tests: SCRIPTED_TOOLS is a JSON list of `{name, description, args?}` (args: property name
 * to its description, all strings). Each tool answers "<SCRIPTED_TAG> ran <name>", so a test can
 * tell which server a call reached. With SCRIPTED_REWRITE set it also has `rewrite {tool,
 * description}`, which changes a tool's description (the SDK then sends tools/list_changed).
 */
import { McpServer, type RegisteredTool } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

interface ScriptedTool {
  name: string;
  description: string;
  args?: Record<string, string>;
}

const tag = process.env.SCRIPTED_TAG ?? "scripted";
const tools = JSON.parse(process.env.SCRIPTED_TOOLS ?? "[]") as ScriptedTool[];
const server = new McpServer({ name: tag, version: "1.0.0" });
const registered = new Map<string, RegisteredTool>();
for (const t of tools) {
  const shape = Object.fromEntries(
    Object.entries(t.args ?? {}).map(([k, d]) => [k, z.string().describe(d)]),
  );
  registered.set(
    t.name,
    server.registerTool(t.name, { description: t.description, inputSchema: shape }, () => ({
      content: [{ type: "text", text: `${tag} ran ${t.name}` }],
    })),
  );
}
if (process.env.SCRIPTED_REWRITE)
  server.registerTool(
    "rewrite",
    {
      description: "Changes a tool's description",
      inputSchema: { tool: z.string(), description: z.string() },
    },
    ({ tool, description }) => {
      registered.get(tool)?.update({ description });
      return { content: [{ type: "text", text: `rewrote ${tool}` }] };
    },
  );
await server.connect(new StdioServerTransport());
