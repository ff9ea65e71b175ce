/**
 * Which MCP tools get their Claude Code name (`mcp__<server>__<tool>`), decided from the whole
 * picture so the outcome does not depend on which server started first. That name is ambiguous:
 * server "a" with tool "b__c" and server "a__b" with tool "c" are both `mcp__a__b__c`, as are
 * servers "a.b" and "a_b". An ambiguous name is refused for every side, one line each, so no
 * server's call (nor the person's "always") lands on another one:
 * - a tool of one server whose name falls in another configured server's names (`mcp__a__b__…`
 *   for server "a__b") is refused whether or not that server has started, and
 * - any name two listed tools would share is refused for both.
 * Servers whose own names are the same once cleaned are refused whole (`clashingServers`).
 * A tool whose name or property names hold invisible characters is refused too.
 */
import { escapeInvisible, hasInvisible, invisibleKey } from "../../core/invisible-text.ts";
import type { McpToolInfo } from "../../mcp/list-tools.ts";
import { mcpToolName } from "../../mcp/tool.ts";

export interface ServerTools {
  /** The server's configured name. */
  name: string;
  /** The server as a person reads it (serverLabel). */
  label: string;
  /** Its listed tools (empty before it has listed any). */
  tools: readonly McpToolInfo[];
}

export interface ToolNames {
  /** The tools each server may register, by server name. */
  accepted: Map<string, McpToolInfo[]>;
  /** One line per refused tool, naming its server, the tool and why. */
  refused: string[];
}

/**
 * `configured`: every server that could serve tools (started or not), by name and label;
 * `listed`: those whose tool lists are known.
 */
export function assignToolNames(
  configured: readonly { name: string; label: string }[],
  listed: readonly ServerTools[],
): ToolNames {
  const accepted = new Map<string, McpToolInfo[]>();
  const refused: string[] = [];
  const claims = new Map<string, { server: ServerTools; tool: McpToolInfo }[]>();
  const spaces = configured.map((s) => ({ ...s, prefix: mcpToolName(s.name, "") }));
  const candidates: { server: ServerTools; tool: McpToolInfo; full: string }[] = [];
  for (const server of listed) {
    for (const tool of server.tools) {
      const refuse = (why: string) =>
        refused.push(`${server.label}: tool "${escapeInvisible(tool.name)}" refused: ${why}`);
      if (hasInvisible(tool.name)) {
        refuse("its name holds invisible characters");
        continue;
      }
      const key = invisibleKey(tool.inputSchema);
      if (key !== undefined) {
        refuse(`its input schema's "${escapeInvisible(key)}" holds invisible characters`);
        continue;
      }
      const full = mcpToolName(server.name, tool.name);
      const claimants = claims.get(full) ?? [];
      claimants.push({ server, tool });
      claims.set(full, claimants);
      candidates.push({ server, tool, full });
    }
  }
  for (const { server, tool, full } of candidates) {
    // One wording whichever rule refuses it, so the line is the same before and after the other
    // server lists its tools (and said once).
    const refuse = (label: string, other: string) =>
      refused.push(
        `${server.label}: tool "${tool.name}" refused: its name ${full} could also be ${label}'s ` +
          `tool "${other}"; rename one of the servers so their tool names differ`,
      );
    const rival = claims.get(full)!.find((c) => c.tool !== tool);
    if (rival?.server === server) {
      refused.push(
        `${server.label}: tool "${tool.name}" refused: its tool "${rival.tool.name}" has the same name ${full} once cleaned`,
      );
      continue;
    }
    if (rival) {
      refuse(rival.server.label, rival.tool.name);
      continue;
    }
    const own = mcpToolName(server.name, "");
    // Only a longer (or equally long) prefix owns the name: every tool of "a__b" starts "mcp__a__".
    const owner = spaces.find(
      (s) => s.name !== server.name && s.prefix.length >= own.length && full.startsWith(s.prefix),
    );
    if (owner) {
      refuse(owner.label, full.slice(owner.prefix.length));
      continue;
    }
    const list = accepted.get(server.name) ?? [];
    list.push(tool);
    accepted.set(server.name, list);
  }
  return { accepted, refused };
}

/** A contributed server, with the others of its name it would shadow (lowest first). */
export interface NamedServer {
  name: string;
  label: string;
  /** Which plugin declared it under which name (McpServerSpec.plugin); null for a config file. */
  plugin: { name: string; server: string } | null;
}

/**
 * The servers to refuse whole, with one line for each side: two whose names are the same once
 * cleaned ("a.b", "a_b"), and two plugins' servers `plugin_<plugin>_<server>` joined to one name by
 * different plugin and server names ("foo"+"bar_baz", "foo_bar"+"baz"). A config file's server
 * shadowing another of its exact name is not a clash (a project's over the global one is meant).
 */
export function clashingServers(stacks: readonly (readonly NamedServer[])[]): {
  names: Set<string>;
  lines: string[];
} {
  const names = new Set<string>();
  const lines: string[] = [];
  const who = (s: NamedServer) =>
    s.plugin ? `${s.label}, plugin ${s.plugin.name}'s server "${s.plugin.server}",` : s.label;
  const refuse = (group: readonly NamedServer[], why: string) => {
    for (const s of group) {
      names.add(s.name);
      const others = group.filter((o) => o !== s).map(who);
      lines.push(`${who(s)} refused: ${others.join(", ")} ${why}; rename one of them`);
    }
  };
  const byClean = new Map<string, NamedServer[]>();
  for (const stack of stacks) {
    const top = stack.at(-1);
    if (!top) continue;
    const declarers = new Map(stack.map((s) => [JSON.stringify(s.plugin), s]));
    if (declarers.size > 1 && stack.some((s) => s.plugin)) {
      refuse([...declarers.values()], `has the same name "${top.name}"`);
      continue;
    }
    const clean = mcpToolName(top.name, "");
    byClean.set(clean, [...(byClean.get(clean) ?? []), top]);
  }
  for (const [clean, group] of byClean)
    if (group.length > 1) refuse(group, `gives its tools the same names (${clean}…)`);
  return { names, lines };
}
