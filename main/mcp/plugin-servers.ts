/**
 * A Claude Code plugin's MCP servers, for the plugin source (main/extensions/claude/): its
 * `.mcp.json` and the manifest's `mcpServers` (a `./path` to a file, a list of them, or inline
 * servers), with `${CLAUDE_PLUGIN_ROOT}` set, named `plugin_<plugin>_<server>` so their tools are
 * `mcp__plugin_<plugin>_<server>__<tool>` as in Claude Code. Contribute each with
 * `registrar.mcpServer({ name: spec.name, source: spec.source, spec })` in the plugin's scope.
 */
import path from "node:path";
import { loadMcpConfig, mcpProblem, parseMcpServers, type McpConfigResult } from "./config.ts";
import { pluginServerName } from "./tool.ts";

export function pluginMcpServers(
  root: string,
  plugin: string,
  opts: { manifest?: unknown; env?: Record<string, string | undefined> } = {},
): McpConfigResult {
  const out: McpConfigResult = { servers: [], problems: [] };
  const base = { pluginRoot: root, env: opts.env, source: `plugin ${plugin}` };
  const add = (r: McpConfigResult) => {
    out.servers.push(
      ...r.servers.map((s) => ({
        ...s,
        name: pluginServerName(plugin, s.name),
        plugin: { name: plugin, server: s.name },
      })),
    );
    out.problems.push(...r.problems);
  };
  add(loadMcpConfig(path.join(root, ".mcp.json"), base));
  const declared = opts.manifest;
  const manifestFile = path.join(root, ".claude-plugin", "plugin.json");
  const fromPath = (p: unknown) => {
    if (typeof p !== "string" || !p.startsWith("./")) {
      out.problems.push(
        mcpProblem(manifestFile, 'field "mcpServers": a path must start with "./"'),
      );
      return;
    }
    const file = path.resolve(root, p);
    if (path.relative(root, file).startsWith(".."))
      out.problems.push(
        mcpProblem(manifestFile, `field "mcpServers": "${p}" leaves the plugin folder`),
      );
    else if (file !== path.join(root, ".mcp.json")) add(loadMcpConfig(file, base));
  };
  if (declared === undefined) return out;
  if (typeof declared === "string") fromPath(declared);
  else if (Array.isArray(declared)) declared.forEach(fromPath);
  else add(parseMcpServers({ mcpServers: declared }, manifestFile, base));
  return out;
}
