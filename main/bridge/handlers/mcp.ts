/**
 * `mcp/*`: the MCP servers of the engine (engine.mcp) for the plugin browser; every status change
 * goes to every client as `mcp/changed`.
 */
import type { McpManager } from "../../extensions/mcp/manager.ts";
import { EVERYONE, type BridgeService, type CallHandlers } from "../service.ts";

/** What the MCP calls ask of the engine: these parts of its MCP servers' manager. */
export type McpPort = Pick<
  McpManager,
  "list" | "enable" | "disable" | "restart" | "log" | "onStatus"
>;

export function mcpHandlers(
  mcp: McpPort,
  service: Pick<BridgeService, "emit">,
): Pick<CallHandlers, "mcp/list" | "mcp/setEnabled" | "mcp/restart" | "mcp/log"> {
  mcp.onStatus((server) => service.emit(EVERYONE, "mcp/changed", { server }));
  return {
    "mcp/list": async () => ({ servers: mcp.list() }),
    "mcp/setEnabled": async ({ name, enabled }) => ({
      server: enabled ? await mcp.enable(name) : await mcp.disable(name),
    }),
    "mcp/restart": async ({ name }) => ({ server: await mcp.restart(name) }),
    "mcp/log": async ({ name }) => ({ lines: mcp.log(name) }),
  };
}
