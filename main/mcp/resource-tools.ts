/**
 * MCP resources as two tools, as Claude Code offers them: `ListMcpResourcesTool` (every running
 * server's resources, or one server's) and `ReadMcpResourceTool` (one resource by server and
 * URI). Registered while at least one server offers resources; read-only, so they run in parallel.
 */
import type { ReadResourceResult, Resource } from "@modelcontextprotocol/sdk/types.js";
import { ToolError, type Tool, type Validation } from "../tools/types.ts";
import type { McpConnection } from "./connection.ts";

export const LIST_RESOURCES = "ListMcpResourcesTool";
export const READ_RESOURCE = "ReadMcpResourceTool";

/** The connections that offer resources now, by server name. */
export type ResourceServers = () => Map<string, McpConnection>;

export function resourceTools(servers: ResourceServers): Tool[] {
  return [listTool(servers), readTool(servers)];
}

function listTool(servers: ResourceServers): Tool {
  return {
    name: LIST_RESOURCES,
    description:
      "Lists the resources MCP servers offer (uri, name, mimeType, description, server). Give `server` for one server's only.",
    parameters: {
      type: "object",
      properties: { server: { type: "string", description: "Only this MCP server's resources" } },
      additionalProperties: false,
    },
    source: "mcp",
    parallel: true,
    validate: (args) => check(args, [], ["server"]),
    async execute(args) {
      const all = servers();
      const name = args.server as string | undefined;
      const picked = name ? [[name, pick(all, name)] as const] : [...all];
      const out: (Pick<Resource, "uri" | "name" | "mimeType" | "description"> & {
        server: string;
      })[] = [];
      for (const [server, conn] of picked) {
        const resources = await conn.request(async (client) => {
          const found: Resource[] = [];
          let cursor: string | undefined;
          do {
            const page = await client.listResources(cursor ? { cursor } : undefined);
            found.push(...page.resources);
            cursor = page.nextCursor;
          } while (cursor);
          return found;
        });
        for (const r of resources)
          out.push({
            uri: r.uri,
            name: r.name,
            ...(r.mimeType ? { mimeType: r.mimeType } : {}),
            ...(r.description ? { description: r.description } : {}),
            server,
          });
      }
      return out.length ? JSON.stringify(out, null, 1) : "No resources.";
    },
  };
}

function readTool(servers: ResourceServers): Tool {
  return {
    name: READ_RESOURCE,
    description: "Reads one resource of an MCP server by its URI (from ListMcpResourcesTool).",
    parameters: {
      type: "object",
      properties: {
        server: { type: "string", description: "The MCP server's name" },
        uri: { type: "string", description: "The resource's URI" },
      },
      required: ["server", "uri"],
      additionalProperties: false,
    },
    source: "mcp",
    parallel: true,
    validate: (args) => check(args, ["server", "uri"], []),
    async execute(args) {
      const server = args.server as string;
      const uri = args.uri as string;
      const conn = pick(servers(), server);
      const result: ReadResourceResult = await conn.request((client) =>
        client.readResource({ uri }),
      );
      return result.contents
        .map((c) =>
          "text" in c
            ? c.text
            : `[blob ${c.uri}: ${c.mimeType ?? "binary"}, ${Math.round((c.blob.length * 3) / 4)} bytes]`,
        )
        .join("\n");
    },
  };
}

function pick(all: Map<string, McpConnection>, name: string): McpConnection {
  const conn = all.get(name);
  if (!conn)
    throw new ToolError(
      `no MCP server "${name}" offers resources; those that do: ${[...all.keys()].join(", ") || "none"}`,
    );
  return conn;
}

/** Required and optional string fields, nothing else. */
function check(args: unknown, required: string[], optional: string[]): Validation {
  if (args === null || typeof args !== "object" || Array.isArray(args))
    return { ok: false, error: "arguments must be an object" };
  const record = args as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (!required.includes(key) && !optional.includes(key))
      return { ok: false, error: `unknown field "${key}"` };
  for (const key of [...required, ...optional]) {
    if (record[key] === undefined) {
      if (required.includes(key)) return { ok: false, error: `"${key}" is required` };
    } else if (typeof record[key] !== "string")
      return { ok: false, error: `"${key}" must be a string` };
  }
  return { ok: true, value: record };
}
