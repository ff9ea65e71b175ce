/**
 * A plugin's language servers (`lspServers` in plugin.json, `.lsp.json` at its root). Islet does
 * not run them yet: each is listed, with one warning naming the file, so none is dropped unseen.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Problem } from "../../host/problem.ts";

export interface LspServerEntry {
  name: string;
  /** The `command` it would start, when one is given. */
  command?: string;
  /** Where it is declared. */
  file: string;
}

export const LSP_UNSUPPORTED = "language servers are not supported yet; not started";

export function pluginLspServers(
  dir: string,
  fromManifest: unknown,
): { servers: LspServerEntry[]; problems: Problem[] } {
  const manifestFile = path.join(dir, ".claude-plugin", "plugin.json");
  const servers: LspServerEntry[] = [];
  const problems: Problem[] = [];
  const readFile = (file: string, named: boolean) => {
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (named || code !== "ENOENT")
        problems.push({
          source: "claude-plugins",
          file,
          title: `LSP servers: cannot read (${code ?? (err as Error).message.split("\n")[0]})`,
        });
      return;
    }
    addAll(data, file);
  };
  const addAll = (data: unknown, file: string) => {
    if (typeof data !== "object" || data === null || Array.isArray(data)) return;
    const map = (data as { lspServers?: unknown }).lspServers ?? data;
    if (typeof map !== "object" || map === null) return;
    for (const [name, cfg] of Object.entries(map)) {
      const command = (cfg as { command?: unknown } | null)?.command;
      servers.push({ name, file, command: typeof command === "string" ? command : undefined });
    }
  };
  readFile(path.join(dir, ".lsp.json"), false);
  const listed = Array.isArray(fromManifest) ? fromManifest : [fromManifest];
  for (const entry of listed) {
    if (entry === undefined) continue;
    if (typeof entry === "string") {
      const file = path.resolve(dir, entry);
      const rel = path.relative(dir, file);
      if (entry.startsWith("./") && !rel.startsWith("..") && !path.isAbsolute(rel))
        readFile(file, true);
      else
        problems.push({
          source: "claude-plugins",
          file: manifestFile,
          title: 'field "lspServers": expected a path starting with "./" inside the plugin',
        });
    } else addAll(entry, manifestFile);
  }
  for (const s of servers)
    problems.push({
      source: "claude-plugins",
      file: s.file,
      title: `LSP server "${s.name}"${s.command ? ` (${s.command})` : ""}: ${LSP_UNSUPPORTED}`,
    });
  return { servers, problems };
}
