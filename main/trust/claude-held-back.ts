/**
 * A project's Claude Code plugins, for the trust question and the held-back notice: untrusted,
 * their commands, skills and agents still serve, their hooks, MCP servers and language servers
 * (programs run outside any sandbox) do not — so those are named, plugin by plugin. Read leniently and on its
 * own (the plugin loader is a floor above): an unreadable file still counts as something held back.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { pluginMcpServers } from "../mcp/plugin-servers.ts";

export async function claudePluginHeldBack(dir: string, shownAs: string): Promise<string | null> {
  const manifest = await readJson(path.join(dir, ".claude-plugin", "plugin.json"));
  const record = isRecord(manifest) ? manifest : {};
  const name = typeof record.name === "string" ? record.name : path.basename(dir);
  const servers = pluginMcpServers(dir, name, { manifest: record.mcpServers }).servers.map(
    (s) => s.plugin?.server ?? s.name,
  );
  const hookFiles: unknown[] = [await readJson(path.join(dir, "hooks", "hooks.json"))];
  const listed = Array.isArray(record.hooks) ? record.hooks : [record.hooks];
  for (const entry of listed) {
    if (typeof entry === "string" && entry.startsWith("./"))
      hookFiles.push(await readJson(path.resolve(dir, entry)));
    else if (isRecord(entry)) hookFiles.push(entry);
  }
  const events = new Set<string>();
  for (const file of hookFiles) {
    if (file === UNREADABLE) events.add("a hooks file it could not read");
    else if (isRecord(file) && isRecord(file.hooks))
      for (const event of Object.keys(file.hooks)) events.add(event);
  }
  const lsp = new Set<string>();
  for (const source of [await readJson(path.join(dir, ".lsp.json")), record.lspServers]) {
    const map = isRecord(source) && isRecord(source.lspServers) ? source.lspServers : source;
    if (isRecord(map)) for (const name of Object.keys(map)) lsp.add(name);
  }
  const parts: string[] = [];
  if (events.size > 0) parts.push(`hooks (${[...events].join(", ")})`);
  if (servers.length > 0) parts.push(`MCP servers (${servers.join(", ")})`);
  if (lsp.size > 0) parts.push(`language servers (${[...lsp].join(", ")})`);
  if (parts.length === 0) return null;
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : parts[0];
  return `Claude plugin ${name}'s ${list} from ${shownAs}`;
}

const UNREADABLE = Symbol("unreadable");

/** The file's JSON; undefined when it does not exist; UNREADABLE when it exists but is broken. */
async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return UNREADABLE;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
