/**
 * Everything extensions contribute to one engine: tools, commands, hooks, prompt fragments,
 * agents and MCP servers, each registry layered (see layered.ts), plus registrars for sources.
 */
import { AgentRegistry } from "../agents/registry.ts";
import { CommandRegistry } from "../commands/registry.ts";
import { ToolRegistry } from "../tools/registry.ts";
import { HookSources } from "./hook-sources.ts";
import { McpServers } from "./mcp-servers.ts";
import { PromptFragments } from "./prompt-fragments.ts";
import { RegistrarScope, type ContributionTargets, type ScopedRegistrar } from "./registrar.ts";

export class Contributions implements ContributionTargets {
  readonly tools = new ToolRegistry();
  readonly commands = new CommandRegistry();
  readonly hooks = new HookSources();
  readonly agents = new AgentRegistry();
  readonly promptFragments = new PromptFragments();
  readonly mcpServers = new McpServers();

  /** A registrar for one source; disposing it releases whatever the source left registered. */
  registrar(): ScopedRegistrar {
    return new RegistrarScope(this);
  }
}
