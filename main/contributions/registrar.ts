/**
 * How an extension source contributes to the engine. Every contribution returns a disposable; a
 * registrar also remembers what went through it, so disposing the registrar (a source unloaded, a
 * plugin reloaded or removed) releases exactly that, and what it shadowed serves again.
 */
import type { HookRegistry } from "../turn/hooks/types.ts";
import type { AgentConfig } from "../agents/definition.ts";
import type { AgentRegistry } from "../agents/registry.ts";
import type { CommandRegistry } from "../commands/registry.ts";
import type { SlashCommand } from "../commands/types.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { Tool } from "../tools/types.ts";
import type { Disposable } from "../lifecycle/disposable.ts";
import type { HookSources } from "./hook-sources.ts";
import type { Registration } from "../lifecycle/layered.ts";
import type { McpServerContribution, McpServers } from "./mcp-servers.ts";
import type { PromptFragment, PromptFragments } from "./prompt-fragments.ts";

export interface ContributionRegistrar {
  /** Throws the conflict error when the name is taken and the tool does not say `override`. */
  tool(tool: Tool): Registration<Tool>;
  /** `serving()` on the result tells whether a higher-priority command shadows this one. */
  command(command: SlashCommand): Registration<SlashCommand>;
  /** A provider of hook handlers; `order` is its kind's place (HOOK_SOURCE_ORDER). */
  hooks(registry: HookRegistry, order: number): Disposable;
  promptFragment(fragment: PromptFragment): Disposable;
  agent(agent: AgentConfig): Registration<AgentConfig>;
  mcpServer(server: McpServerContribution): Registration<McpServerContribution>;
  /** A child registrar (e.g. one plugin of a source): disposing it releases only its share. */
  scope(): ScopedRegistrar;
}

export interface ScopedRegistrar extends ContributionRegistrar, Disposable {}

/** The registries contributions land in (the engine's). */
export interface ContributionTargets {
  readonly tools: ToolRegistry;
  readonly commands: CommandRegistry;
  readonly hooks: HookSources;
  readonly agents: AgentRegistry;
  readonly promptFragments: PromptFragments;
  readonly mcpServers: McpServers;
}

export class RegistrarScope implements ScopedRegistrar {
  private readonly targets: ContributionTargets;
  private readonly parent: RegistrarScope | null;
  /** What went through this scope and is still registered, children included. */
  private readonly held = new Set<Disposable>();
  private disposed = false;

  constructor(targets: ContributionTargets, parent: RegistrarScope | null = null) {
    this.targets = targets;
    this.parent = parent;
  }

  tool(tool: Tool): Registration<Tool> {
    return this.track(this.open().tools.register(tool));
  }

  command(command: SlashCommand): Registration<SlashCommand> {
    return this.track(this.open().commands.register(command));
  }

  hooks(registry: HookRegistry, order: number): Disposable {
    return this.hold(this.open().hooks.add(registry, order));
  }

  promptFragment(fragment: PromptFragment): Disposable {
    return this.hold(this.open().promptFragments.add(fragment));
  }

  agent(agent: AgentConfig): Registration<AgentConfig> {
    return this.track(this.open().agents.add(agent, "extension"));
  }

  mcpServer(server: McpServerContribution): Registration<McpServerContribution> {
    return this.track(this.open().mcpServers.add(server));
  }

  scope(): ScopedRegistrar {
    const child = new RegistrarScope(this.open(), this);
    this.held.add(child);
    return child;
  }

  /** Releases everything contributed through this scope and its children, newest first. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const d of [...this.held].reverse()) d.dispose();
    this.held.clear();
    this.parent?.held.delete(this);
  }

  private open(): ContributionTargets {
    if (this.disposed) throw new Error("contribution after its source was unloaded");
    return this.targets;
  }

  private hold(inner: Disposable): Disposable {
    const held: Disposable = {
      dispose: () => {
        this.held.delete(held);
        inner.dispose();
      },
    };
    this.held.add(held);
    return held;
  }

  private track<T>(inner: Registration<T>): Registration<T> {
    const held = this.hold(inner);
    return { value: inner.value, serving: () => inner.serving(), dispose: () => held.dispose() };
  }
}
