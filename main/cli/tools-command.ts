/** `islet tools [NAME [KEY=VALUE... | JSON]]`: list tools, show a schema, or run one directly (no hooks). */
import { visibleText } from "../core/visible-text.ts";
import { executeToolCall } from "../tools/executor.ts";
import { newToolSessionState, type Tool } from "../tools/types.ts";
import type { ToolRegistry } from "../tools/registry.ts";
import type { Output } from "./render.ts";
import { UsageError } from "./usage.ts";

type Json = Record<string, unknown>;

function propertyType(tool: Tool, key: string): string | undefined {
  const prop = (tool.parameters.properties ?? {})[key] as { type?: unknown } | undefined;
  return typeof prop?.type === "string" ? prop.type : undefined;
}

/** KEY=VALUE pairs typed by the schema: non-string properties take JSON (numbers, booleans, arrays). */
export function parseToolArgs(tool: Tool, words: readonly string[]): Json {
  if (words.length === 1 && words[0].trim().startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(words[0]);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return parsed as Json;
    } catch (err) {
      throw new UsageError(
        `${tool.name}: arguments are not valid JSON (${(err as Error).message})`,
      );
    }
    throw new UsageError(`${tool.name}: JSON arguments must be an object`);
  }
  const args: Json = {};
  for (const word of words) {
    const eq = word.indexOf("=");
    if (eq <= 0)
      throw new UsageError(`${tool.name}: expected KEY=VALUE or one JSON object, got "${word}"`);
    const key = word.slice(0, eq);
    const raw = word.slice(eq + 1);
    const type = propertyType(tool, key);
    if (type === undefined || type === "string") {
      args[key] = raw;
      continue;
    }
    try {
      args[key] = JSON.parse(raw);
    } catch {
      throw new UsageError(
        `${tool.name}: ${key} must be ${type === "array" || type === "object" ? "JSON" : `a ${type}`}, got "${raw}"`,
      );
    }
  }
  return args;
}

/** Why a tool is missing, when a plugin that did not load explains it (PluginRuntime.missingTool). */
export type MissingTool = (name: string) => { known: boolean; line: string } | undefined;

export async function toolsCommand(
  registry: ToolRegistry,
  words: string[],
  workdir: string,
  io: Output,
  missingTool: MissingTool = () => undefined,
): Promise<number> {
  if (words.length === 0) {
    const tools = registry.list();
    const width = Math.max(...tools.map((t) => t.name.length));
    for (const t of tools)
      // A plugin's or MCP server's description may hide words in invisible characters.
      io.out(
        `${visibleText(t.name).padEnd(width)}  ${t.source.padEnd(8)} ${visibleText((t.binding?.sentDescription ?? t.description).split("\n")[0])}\n`,
      );
    return 0;
  }
  const [name, ...rest] = words;
  const tool = registry.get(name);
  if (!tool) {
    const plugin = missingTool(name);
    // Its plugin is known and broken: not a usage mistake, the plugin needs fixing.
    if (plugin?.known) throw new Error(plugin.line);
    const maybe = plugin ? `; ${plugin.line}` : "";
    throw new UsageError(`unknown tool "${name}"${maybe}; \`islet tools\` lists them`);
  }
  if (rest.length === 0) {
    io.out(
      `${JSON.stringify({ name: tool.name, description: tool.description, usage: tool.usage, examples: tool.examples, parallel: tool.parallel, source: tool.source, parameters: tool.parameters }, null, 2)}\n`,
    );
    return 0;
  }
  const args = parseToolArgs(tool, rest);
  const result = await executeToolCall(
    tool,
    args,
    {
      workdir,
      signal: new AbortController().signal,
      state: newToolSessionState(),
      timeoutMs: 120_000,
    },
    // The user runs this tool by hand: there is no model whose reads the guard would track.
    { readBeforeWrite: false },
  );
  if (result.error) {
    io.err(`${result.output}\n`);
    return 1;
  }
  io.out(result.output.endsWith("\n") ? result.output : `${result.output}\n`);
  return 0;
}
