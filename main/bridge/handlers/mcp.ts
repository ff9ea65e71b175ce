/**
 * `mcp/*`: the MCP servers of the engine (engine.mcp) for the plugin browser; every status change
 * goes to every client as `mcp/changed`.
 */
import type { Engine } from "../../engine/engine.ts";
import { EVERYONE, type BridgeService, type CallHandlers } from "../service.ts";

export function mcpHandlers(
  engine: Engine,
  service: Pick<BridgeService, "emit">,
): Pick<CallHandlers, "mcp/list" | "mcp/setEnabled" | "mcp/restart" | "mcp/log"> {
  engine.mcp.onStatus((server) => service.emit(EVERYONE, "mcp/changed", { server }));
  return {
    "mcp/list": async () => ({ servers: engine.mcp.list() }),
    "mcp/setEnabled": async ({ name, enabled }) => ({
      server: enabled ? await engine.mcp.enable(name) : await engine.mcp.disable(name),
    }),
    "mcp/restart": async ({ name }) => ({ server: await engine.mcp.restart(name) }),
    "mcp/log": async ({ name }) => ({ lines: engine.mcp.log(name) }),
  };
}
