/**
 * All tools known to a session (built-in, plugin, MCP, extension) by name; each name holds a stack
 * of contributions of which the top one serves.
 */
import { LayeredRegistry, type Registration } from "../lifecycle/layered.ts";
import type { ToolSpec } from "../providers/types.ts";
import type { ApprovalRule, Tool } from "./types.ts";
import { toolSpec } from "./types.ts";

export interface ToolFilter {
  /** Name patterns to offer (`*` matches any run of characters); empty or missing means all. */
  enabled?: readonly string[];
  /** Name patterns to withhold; applied after `enabled`. */
  disabled?: readonly string[];
}

/** Where a tool sits in its name's stack: overrides above the tool they replace. */
const BASE = 0;
const OVERRIDE = 1;

export class ToolRegistry {
  private readonly layers = new LayeredRegistry<Tool>();

  /**
   * Adds a tool; disposing the registration takes exactly it back, and whatever it covered serves
   * again. A second tool with a taken name is a load error (two plugins silently fighting over
   * `Read` would be far worse) unless it declares `override`, which stacks it on top: the last
   * override registered serves. A tool without `override` conflicts only with another such tool,
   * so a plugin reloaded under someone's override still loads.
   */
  register(tool: Tool): Registration<Tool> {
    if (!tool.override) {
      const existing = this.layers.contributions(tool.name).find((t) => !t.override);
      if (existing) {
        throw new Error(
          `Tool "${tool.name}" (${tool.source}) conflicts with the already registered ${existing.source} ` +
            `tool of the same name; rename it or set override: true to replace it`,
        );
      }
    }
    return this.layers.add(tool.name, tool, tool.override ? OVERRIDE : BASE);
  }

  get(name: string): Tool | undefined {
    return this.layers.get(name);
  }

  has(name: string): boolean {
    return this.layers.has(name);
  }

  /** The serving tool of every name, in the order the names first appeared. */
  list(): Tool[] {
    return this.layers.values();
  }

  names(): string[] {
    return this.layers.names();
  }

  /**
   * The rule a name's tools declare for before anyone chose one: the lowest that declares one, so
   * an override keeps the rule of the tool it replaces (rules are remembered by name, too).
   */
  approval(name: string): ApprovalRule | undefined {
    return this.layers.contributions(name).find((t) => t.approval)?.approval;
  }

  filter(filter: ToolFilter = {}): Tool[] {
    return filterTools(this.list(), filter);
  }

  /** What the model is told about the tools passing `filter`. */
  specs(filter: ToolFilter = {}): ToolSpec[] {
    return this.filter(filter).map(toolSpec);
  }
}

/** Layers compose: an agent's allow-list, then a plugin's `disableTools`, each one filter call. */
export function filterTools(tools: readonly Tool[], filter: ToolFilter): Tool[] {
  const enabled = filter.enabled ?? [];
  const disabled = filter.disabled ?? [];
  return tools.filter((tool) => {
    // Opt-in tools must be asked for by exact name; "*" is not asking for them.
    const isEnabled = tool.optIn
      ? enabled.includes(tool.name)
      : enabled.length === 0 || enabled.some((p) => matchesToolPattern(tool.name, p));
    return isEnabled && !disabled.some((p) => matchesToolPattern(tool.name, p));
  });
}

/** `*` matches any run of characters (including none); everything else is literal. */
export function matchesToolPattern(name: string, pattern: string): boolean {
  if (!pattern.includes("*")) return name === pattern;
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`).test(name);
}
