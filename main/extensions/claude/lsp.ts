/**
 * A plugin's language servers (`lspServers` in plugin.json, `.lsp.json` at its root), as Claude
 * Code reads them: `{name: {command, args?, env?, extensionToLanguage: {".go": "go"}}}`. Each is
 * started on demand (lsp-hooks.ts); one without a command or file extensions cannot be, and says
 * so in one warning naming its file.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Problem } from "../../host/problem.ts";

export interface LspServerEntry {
  name: string;
  /** The program it starts; missing: it cannot start. */
  command?: string;
  args: string[];
  env: Record<string, string>;
  /** File extension (".go") → LSP language id ("go"). */
  extensionToLanguage: Record<string, string>;
  /** Where it is declared. */
  file: string;
  /** Why it cannot start (no command, no file extensions); undefined when it can. */
  unusable?: string;
}

export function pluginLspServers(
  dir: string,
  fromManifest: unknown,
): { servers: LspServerEntry[]; problems: Problem[] } {
  const manifestFile = path.join(dir, ".claude-plugin", "plugin.json");
  const servers: LspServerEntry[] = [];
  const problems: Problem[] = [];
  const readFile = (file: string, named: boolean) => {
    // Most plugins have none: no read (and no thrown error) for the default file that is not there.
    if (!named && !existsSync(file)) return;
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
    for (const [name, raw] of Object.entries(map)) {
      const cfg = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
      const root = (v: unknown) =>
        typeof v === "string" ? v.replaceAll("${CLAUDE_PLUGIN_ROOT}", dir) : undefined;
      const command = root(cfg.command);
      const strings = (v: unknown): Record<string, string> =>
        typeof v === "object" && v !== null
          ? Object.fromEntries(
              Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"),
            )
          : {};
      const extensionToLanguage = strings(cfg.extensionToLanguage);
      const unusable = !command
        ? "no command to start"
        : Object.keys(extensionToLanguage).length === 0
          ? "no extensionToLanguage: no file would reach it"
          : undefined;
      servers.push({
        name,
        file,
        command,
        args: Array.isArray(cfg.args) ? cfg.args.flatMap((a) => root(a) ?? []) : [],
        env: strings(cfg.env),
        extensionToLanguage,
        unusable,
      });
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
    if (s.unusable)
      problems.push({
        source: "claude-plugins",
        file: s.file,
        title: `LSP server "${s.name}": ${s.unusable}; not started`,
      });
  return { servers, problems };
}
