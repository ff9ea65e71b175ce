/**
 * MCP servers contributed by extensions (config/mcp/*.yaml, .mcp.json, Claude Code plugins), by
 * name: a later contribution of a name shadows an earlier one until it is disposed. The MCP
 * manager (main/extensions/mcp/manager.ts) listens and runs whichever definition serves each name.
 */
import type { McpServerSpec } from "../mcp/config.ts";
import type { Disposable } from "../lifecycle/disposable.ts";
import { LayeredRegistry, type Registration } from "../lifecycle/layered.ts";

export interface McpServerContribution {
  name: string;
  /** Where it was declared (a file or plugin), for listings and errors. */
  source: string;
  /** How to reach it (loadMcpConfig's result); without one the server is only named. */
  spec?: McpServerSpec;
}

export class McpServers {
  private readonly layers = new LayeredRegistry<McpServerContribution>();
  private readonly listeners = new Set<() => void>();

  add(server: McpServerContribution): Registration<McpServerContribution> {
    const inner = this.layers.add(server.name, server);
    this.changed();
    return {
      value: inner.value,
      serving: () => inner.serving(),
      dispose: () => {
        const had = this.layers.contributions(server.name).includes(server);
        inner.dispose();
        if (had) this.changed();
      },
    };
  }

  get(name: string): McpServerContribution | undefined {
    return this.layers.get(name);
  }

  /** Every contribution of a name, the shadowed ones first and the serving one last. */
  contributions(name: string): readonly McpServerContribution[] {
    return this.layers.contributions(name);
  }

  /** The names hook contexts show as `mcpServers`. */
  names(): string[] {
    return this.layers.names();
  }

  /** The serving contribution of every name. */
  list(): McpServerContribution[] {
    return this.layers.values();
  }

  /** Called after every add and dispose. */
  onChange(listener: () => void): Disposable {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  }

  private changed(): void {
    for (const l of [...this.listeners]) l();
  }
}
