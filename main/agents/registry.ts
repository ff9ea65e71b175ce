/**
 * The agents a session may use, by name. Files in the homes (config/agents/*.md) win over agents
 * contributed by extensions (plugins, Claude Code plugins), which win over the built-in default;
 * disposing a contribution brings back what it shadowed. Reads like a ReadonlyMap so the turn
 * loop and commands need not know it is layered.
 */
import { LayeredRegistry, type Registration } from "../lifecycle/layered.ts";
import { DEFAULT_AGENT, type AgentConfig } from "./definition.ts";

export type AgentOrigin = "builtin" | "extension" | "config";

const PRIORITY: Record<AgentOrigin, number> = { builtin: 0, extension: 1, config: 2 };

export class AgentRegistry implements ReadonlyMap<string, AgentConfig> {
  private readonly layers = new LayeredRegistry<AgentConfig>();

  add(agent: AgentConfig, origin: AgentOrigin): Registration<AgentConfig> {
    return this.layers.add(agent.name, agent, PRIORITY[origin]);
  }

  /** What loadAgents() found: the built-in default and the homes' files. */
  addLoaded(agents: ReadonlyMap<string, AgentConfig>): void {
    for (const agent of agents.values())
      this.add(agent, agent === DEFAULT_AGENT ? "builtin" : "config");
  }

  get(name: string): AgentConfig | undefined {
    return this.layers.get(name);
  }

  has(name: string): boolean {
    return this.layers.has(name);
  }

  get size(): number {
    return this.layers.names().length;
  }

  forEach(
    fn: (agent: AgentConfig, name: string, map: ReadonlyMap<string, AgentConfig>) => void,
  ): void {
    for (const [name, agent] of this) fn(agent, name, this);
  }

  keys(): MapIterator<string> {
    return this.snapshot().keys();
  }

  values(): MapIterator<AgentConfig> {
    return this.snapshot().values();
  }

  entries(): MapIterator<[string, AgentConfig]> {
    return this.snapshot().entries();
  }

  [Symbol.iterator](): MapIterator<[string, AgentConfig]> {
    return this.entries();
  }

  /** Moves on whenever an agent is added or removed (what a listing of them caches by). */
  get version(): number {
    return this.layers.version;
  }

  private copy: { at: number; agents: Map<string, AgentConfig> } | null = null;

  /**
   * Iterating a copy keeps iteration safe while contributions change; the copy is kept until they
   * do (a marketplace brings hundreds of agents, listed at every model call).
   */
  private snapshot(): Map<string, AgentConfig> {
    if (this.copy?.at !== this.layers.version)
      this.copy = {
        at: this.layers.version,
        agents: new Map(this.layers.values().map((a) => [a.name, a])),
      };
    return this.copy.agents;
  }
}
