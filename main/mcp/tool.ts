/**
 * An MCP server's tool as an engine Tool, named `mcp__<server>__<tool>` as Claude Code names it,
 * with the server's JSON schema (checked with ajv before the call). Calls go through approvals and
 * hooks like any tool's, because the turn loop runs every registered tool the same way. The model
 * reads its description and schema without invisible characters; its "always" is bound to the
 * server and the definition (ToolBinding).
 */
import { createHash } from "node:crypto";
import { Ajv, type ValidateFunction } from "ajv";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { stripInvisible, stripInvisibleDeep } from "../core/invisible-text.ts";
import {
  ToolError,
  type Tool,
  type ToolBinding,
  type ToolContext,
  type Validation,
} from "../tools/types.ts";
import type { McpServerSpec } from "./config.ts";
import type { McpConnection } from "./connection.ts";
import type { McpToolInfo } from "./list-tools.ts";

// Servers use formats ajv does not know ("uri"): the server checks those itself, quietly.
const ajv = new Ajv({
  allErrors: false,
  strict: false,
  coerceTypes: false,
  validateSchema: false,
  logger: false,
});

/** Claude Code's naming: characters outside [A-Za-z0-9_-] become "_". */
export function mcpToolName(server: string, tool: string): string {
  const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");
  return `mcp__${clean(server)}__${clean(tool)}`;
}

/** A Claude Code plugin's server, as its tools are named: `mcp__plugin_<plugin>_<server>__<tool>`. */
export function pluginServerName(plugin: string, server: string): string {
  return `plugin_${plugin}_${server}`;
}

/** A server as a person tells it from another: its name and who declared it. */
export function serverLabel(spec: McpServerSpec): string {
  return `MCP server "${spec.name}" (${spec.source})`;
}

/**
 * The server's name, what runs (command and arguments, or URL) and who declared it, hashed. Not its
 * environment or headers: a rotated token is the same server.
 */
export function serverIdentity(spec: McpServerSpec): string {
  const what =
    spec.transport === "stdio"
      ? { command: spec.command, args: spec.args, cwd: spec.cwd ?? null }
      : { url: spec.url };
  return hash({ name: spec.name, source: spec.source, plugin: spec.plugin ?? null, ...what });
}

/** The tool's description and input schema as the server sent them, hashed. */
export function toolDefinition(info: McpToolInfo): string {
  return hash({ description: info.description, inputSchema: info.inputSchema });
}

function hash(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 32);
}

export function mcpTool(conn: McpConnection, info: McpToolInfo): Tool {
  // Validation uses the server's own schema; the model reads it without invisible characters.
  const schema = { ...info.inputSchema, type: "object" as const };
  const parameters = stripInvisibleDeep(schema);
  // A schema ajv cannot compile: the server checks its own arguments (and results).
  const check = compile(schema);
  const checkOutput = info.outputSchema ? compile(info.outputSchema) : null;
  const description =
    stripInvisible(info.description) || `${info.name} (MCP server ${conn.spec.name})`;
  const binding: ToolBinding = {
    server: serverLabel(conn.spec),
    identity: serverIdentity(conn.spec),
    definition: toolDefinition(info),
    description,
    sentDescription: info.description,
  };
  return {
    name: mcpToolName(conn.spec.name, info.name),
    description,
    parameters,
    source: "mcp",
    parallel: info.readOnly,
    binding,
    validate(args: unknown): Validation {
      if (args === null || typeof args !== "object" || Array.isArray(args))
        return { ok: false, error: "arguments must be an object" };
      if (!check || check(args)) return { ok: true, value: args as Record<string, unknown> };
      const e = check.errors?.[0];
      const where = e?.instancePath
        ? `"${e.instancePath.slice(1).replaceAll("/", ".")}"`
        : "arguments";
      return { ok: false, error: `${where} ${e?.message ?? "are invalid"}` };
    },
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string> {
      let result: CallToolResult;
      try {
        result = await conn.call(info.name, args, { signal: ctx.signal, timeoutMs: ctx.timeoutMs });
      } catch (err) {
        throw new ToolError(`MCP server "${conn.spec.name}": ${(err as Error).message}`);
      }
      const text = resultText(result);
      if (result.isError) throw new ToolError(text || `${info.name} failed`);
      // As the SDK's client does: a tool with an output schema answers with matching content.
      if (checkOutput && !checkOutput(result.structuredContent ?? null)) {
        const e = checkOutput.errors?.[0];
        throw new ToolError(
          `MCP server "${conn.spec.name}": ${info.name} answered outside its output schema: ` +
            `${e?.instancePath || "structuredContent"} ${e?.message ?? "is missing"}`,
        );
      }
      return text;
    },
  };
}

function compile(schema: object): ValidateFunction | null {
  try {
    return ajv.compile(schema);
  } catch {
    return null;
  }
}

/** What the model reads: text parts joined; other parts named; structured content as JSON. */
export function resultText(result: CallToolResult): string {
  const parts: string[] = [];
  for (const part of result.content ?? []) {
    if (part.type === "text") parts.push(part.text);
    else if (part.type === "image" || part.type === "audio")
      parts.push(
        `[${part.type}: ${part.mimeType}, ${Math.round((part.data.length * 3) / 4)} bytes]`,
      );
    else if (part.type === "resource")
      parts.push("text" in part.resource ? part.resource.text : `[resource: ${part.resource.uri}]`);
    else if (part.type === "resource_link") parts.push(`[resource: ${part.uri}]`);
  }
  if (parts.length === 0 && result.structuredContent)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.join("\n");
}
