/**
 * MCP server definitions as Claude Code writes them (`.mcp.json`: `{mcpServers: {name: cfg}}` or
 * the flat `{name: cfg}`; a plugin manifest's inline `mcpServers`) and as Islet's config homes hold
 * them (`config/mcp/NAME.yaml`: one server, named by its file). Parsing is lenient: a broken
 * server is one line naming its file and field, and the others still load.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { expandVars } from "./expand.ts";
import type { Problem } from "../host/problem.ts";

export interface StdioServer {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

export interface HttpServer {
  transport: "http";
  url: string;
  headers: Record<string, string>;
}

export type McpServerSpec = (StdioServer | HttpServer) & {
  name: string;
  /** Where it was declared (file, plugin) for listings and errors. */
  source: string;
  /**
   * A Claude Code plugin's server: the plugin and the server's own name, which `name`
   * (`plugin_<plugin>_<server>`) joins ambiguously ("a_b"+"c" and "a"+"b_c").
   */
  plugin?: { name: string; server: string };
  /** `"disabled": true` in the file: listed, never started until enabled. */
  disabled?: boolean;
};

export interface McpConfigResult {
  servers: McpServerSpec[];
  /** One each: file, field, what to do. */
  problems: Problem[];
}

export interface McpConfigOptions {
  /** A plugin's folder: `${CLAUDE_PLUGIN_ROOT}` expands to it and relative paths resolve from it. */
  pluginRoot?: string;
  /** Variables `${VAR}` expands from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Label for listings (default: the file's path). */
  source?: string;
}

/** Reads a `.mcp.json` (or `.yaml` of one server); a missing file is no servers and no problem. */
export function loadMcpConfig(file: string, opts: McpConfigOptions = {}): McpConfigResult {
  // Most folders have none: no read (and no thrown error) for a file that is not there.
  if (!existsSync(file)) return { servers: [], problems: [] };
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { servers: [], problems: [] };
    return { servers: [], problems: [mcpProblem(file, "cannot read", (err as Error).message)] };
  }
  const yaml = /\.ya?ml$/i.test(file);
  let data: unknown;
  try {
    data = yaml ? parseYaml(text) : JSON.parse(text);
  } catch (err) {
    const msg = (err as Error).message.split("\n")[0];
    return {
      servers: [],
      problems: [mcpProblem(file, `not valid ${yaml ? "YAML" : "JSON"}`, msg)],
    };
  }
  if (yaml && isObject(data) && !("mcpServers" in data)) {
    // config/mcp/NAME.yaml holds one server.
    data = { [path.basename(file).replace(/\.ya?ml$/i, "")]: data };
  }
  return parseMcpServers(data, file, opts);
}

/** Servers from already-parsed JSON (a `.mcp.json` body or a manifest's inline `mcpServers`). */
export function parseMcpServers(
  data: unknown,
  file: string,
  opts: McpConfigOptions = {},
): McpConfigResult {
  const out: McpConfigResult = { servers: [], problems: [] };
  if (!isObject(data)) {
    out.problems.push(
      mcpProblem(file, 'expected an object of servers ({"mcpServers": {NAME: {...}}})'),
    );
    return out;
  }
  let servers: unknown = data;
  let prefix = "";
  if ("mcpServers" in data) {
    servers = data.mcpServers;
    prefix = "mcpServers.";
    if (!isObject(servers)) {
      out.problems.push(
        mcpProblem(file, 'field "mcpServers" must be an object of servers by name'),
      );
      return out;
    }
  }
  for (const [name, cfg] of Object.entries(servers as Record<string, unknown>)) {
    const parsed = parseServer(name, cfg, `field "${prefix}${name}`, opts, file);
    if (typeof parsed === "string") out.problems.push(mcpProblem(file, parsed));
    else out.servers.push(parsed);
  }
  return out;
}

function parseServer(
  name: string,
  cfg: unknown,
  where: string,
  opts: McpConfigOptions,
  file: string,
): McpServerSpec | string {
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    return `${where}": server names may hold only letters, digits, "_", "-" and "."; rename it`;
  if (!isObject(cfg)) return `${where}": must be an object with "command" or "url"`;
  const env = { ...(opts.env ?? process.env) };
  if (opts.pluginRoot) env.CLAUDE_PLUGIN_ROOT = opts.pluginRoot;
  const missing = new Set<string>();
  const expand = (s: string) => expandVars(s, env, missing);
  const strings = (field: string): Record<string, string> | string => {
    const v = cfg[field];
    if (v === undefined) return {};
    if (!isObject(v) || Object.values(v).some((x) => typeof x !== "string"))
      return `${where}.${field}": must be an object of strings`;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x as string)]));
  };
  const base = {
    name,
    source: opts.source ?? file,
    ...(cfg.disabled === true ? { disabled: true } : {}),
  };
  const type = cfg.type ?? (cfg.url !== undefined ? "http" : "stdio");
  let spec: McpServerSpec;
  if (type === "http" || type === "streamable-http" || type === "streamableHttp") {
    if (typeof cfg.url !== "string" || cfg.url === "")
      return `${where}.url": an http server needs a "url" string`;
    const headers = strings("headers");
    if (typeof headers === "string") return headers;
    const url = expand(cfg.url);
    try {
      new URL(url);
    } catch {
      return `${where}.url": "${url}" is not a URL`;
    }
    spec = { ...base, transport: "http", url, headers };
  } else if (type === "stdio") {
    if (typeof cfg.command !== "string" || cfg.command === "")
      return `${where}.command": a stdio server needs a "command" string`;
    const args = cfg.args ?? [];
    if (!Array.isArray(args) || args.some((a) => typeof a !== "string"))
      return `${where}.args": must be a list of strings`;
    const serverEnv = strings("env");
    if (typeof serverEnv === "string") return serverEnv;
    if (cfg.cwd !== undefined && typeof cfg.cwd !== "string")
      return `${where}.cwd": must be a string`;
    const root = opts.pluginRoot ?? path.dirname(path.resolve(file));
    spec = {
      ...base,
      transport: "stdio",
      command: expand(cfg.command),
      args: (args as string[]).map(expand),
      env: serverEnv,
      ...(typeof cfg.cwd === "string" ? { cwd: path.resolve(root, expand(cfg.cwd)) } : {}),
    };
  } else {
    return `${where}.type": unknown type ${JSON.stringify(type)}; use "stdio" or "http"`;
  }
  if (missing.size > 0)
    return `${where}": environment variable ${[...missing].join(", ")} is not set; set it or give a default as \${VAR:-default}`;
  return spec;
}

/** A problem with an MCP config file; `cause` is the parser's or the file system's reason. */
export function mcpProblem(file: string, title: string, cause?: string): Problem {
  return { source: "mcp", file, title, ...(cause !== undefined ? { cause } : {}) };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
