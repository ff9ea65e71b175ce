/**
 * MCP servers contributed by extensions (config/mcp/*.yaml, .mcp.json, Claude Code plugins), by
 * name: a later contribution of a name shadows an earlier one until it is disposed.
 */
import { LayeredRegistry, type Registration } from "./layered.ts";

export interface McpServerContribution {
  name: string;
  /** Where it was declared (a file or plugin), for listings and errors. */
  source: string;
}

export class McpServers {
  private readonly layers = new LayeredRegistry<McpServerContribution>();

  add(server: McpServerContribution): Registration<McpServerContribution> {
    return this.layers.add(server.name, server);
  }

  get(name: string): McpServerContribution | undefined {
    return this.layers.get(name);
  }

  /** The names hook contexts show as `mcpServers`. */
  names(): string[] {
    return this.layers.names();
  }
}
