/** All tools known to a session: built-in, plugin, MCP and extension, by unique name. */
import type { ToolSpec } from "../providers/types.ts";
import type { Tool } from "./types.ts";
import { toolSpec } from "./types.ts";

export interface ToolFilter {
  /** Name patterns to offer (`*` matches any run of characters); empty or missing means all. */
  enabled?: readonly string[];
  /** Name patterns to withhold; applied after `enabled`. */
  disabled?: readonly string[];
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  /**
   * Adds a tool. A second tool with a taken name is a startup error (two plugins silently
   * fighting over `Read` would be far worse) unless it declares `override`, which replaces the
   * earlier one in place.
   */
  register(tool: Tool): void {
    const existing = this.tools.get(tool.name);
    if (existing && !tool.override) {
      throw new Error(
        `Tool "${tool.name}" (${tool.source}) conflicts with the already registered ${existing.source} ` +
          `tool of the same name; rename it or set override: true to replace it`,
      );
    }
    this.tools.set(tool.name, tool);
  }

  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name);
  }

  has(name: string): boolean {
    return this.tools.has(name);
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  names(): string[] {
    return [...this.tools.keys()];
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
