/** `mcp/*`: the MCP servers the engine knows, with status and tools; enable, disable, restart. */
import { z } from "zod";

export const McpServerItem = z.strictObject({
  name: z.string(),
  /** Where it was declared (a config file, .mcp.json, a plugin). */
  source: z.string(),
  transport: z.enum(["stdio", "http"]),
  status: z.enum(["stopped", "starting", "running", "restarting", "failed", "disabled"]),
  /** Why it failed or is restarting (one line). */
  error: z.string().optional(),
  restarts: z.number().int().nonnegative(),
  tools: z.array(z.strictObject({ name: z.string(), description: z.string() })),
});
export type McpServerItem = z.infer<typeof McpServerItem>;

const ServerName = z.string().min(1, "name: required");

/** Lists without starting anything (servers start on first use, or with restart). */
export const McpList = {
  request: z.undefined(),
  response: z.strictObject({ servers: z.array(McpServerItem) }),
};

/** Disabling stops the server and withdraws its tools (remembered per workspace); enabling starts it. */
export const McpSetEnabled = {
  request: z.strictObject({ name: ServerName, enabled: z.boolean() }),
  response: z.strictObject({ server: McpServerItem }),
};

/** Stops and starts it again (also starts a stopped or failed one). */
export const McpRestart = {
  request: z.strictObject({ name: ServerName }),
  response: z.strictObject({ server: McpServerItem }),
};

/** The server's recent lines, oldest first: its stderr, the log messages it sent, lost connections. */
export const McpLog = {
  request: z.strictObject({ name: ServerName }),
  response: z.strictObject({ lines: z.array(z.string()) }),
};

/** A server's status or tools changed (started, crashed, restarting, disabled…). */
export const McpChanged = z.strictObject({ server: McpServerItem });

export const MCP_CALLS = {
  "mcp/list": McpList,
  "mcp/setEnabled": McpSetEnabled,
  "mcp/restart": McpRestart,
  "mcp/log": McpLog,
} as const;

export const MCP_EVENTS = { "mcp/changed": McpChanged } as const;
