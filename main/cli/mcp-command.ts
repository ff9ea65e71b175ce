/** `islet mcp list [--json]`: each MCP server with its source, status and tools (servers are started to list them). */
import { visibleText } from "../core/visible-text.ts";
import type { McpServerStatus } from "../extensions/mcp/manager.ts";
import { COMMON_OPTIONS, parseFlags, PLUGIN_OPTIONS, pluginFlags } from "./options.ts";
import { type Output, warningLines } from "./render.ts";
import { UsageError } from "./usage.ts";

export async function mcpCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    ...PLUGIN_OPTIONS,
    json: { type: "boolean" },
    yes: { type: "boolean", short: "y" },
  });
  const [sub = "list"] = positionals;
  if (sub !== "list") throw new UsageError(`mcp: unknown subcommand "${sub}" (list)`);
  const { createEngine } = await import("../engine/bootstrap.ts");
  const { cliQuestions, terminalAttached } = await import("./questions-tty.ts");
  const engine = await createEngine({
    home: values.home,
    workdir: values.workdir,
    envFile: values["env-file"],
    plugins: pluginFlags(values),
    questions: cliQuestions({ yes: values.yes, interactive: terminalAttached() }),
    warn: warningLines(io),
  });
  try {
    await engine.mcp.startAll();
    const servers = engine.mcp.list();
    if (values.json) io.out(`${JSON.stringify(servers, null, 2)}\n`);
    else io.out(formatServers(servers));
    return 0;
  } finally {
    await engine.close();
  }
}

/**
 * The servers as lines for a person; what a server says of itself (tool names, descriptions,
 * errors) with its control and invisible characters shown, so a description hides no words.
 */
export function formatServers(servers: readonly McpServerStatus[]): string {
  if (servers.length === 0)
    return "No MCP servers (add them to .mcp.json or config/mcp/NAME.yaml in a home).\n";
  const lines: string[] = [];
  for (const s of servers) {
    lines.push(`${visibleText(s.name)}  ${s.status}  ${s.transport}  ${visibleText(s.source)}`);
    if (s.error) lines.push(`  ${visibleText(s.error)}`);
    for (const t of s.tools)
      lines.push(`  ${visibleText(t.name)}  ${visibleText(t.description.split("\n")[0])}`);
  }
  return `${lines.join("\n")}\n`;
}
