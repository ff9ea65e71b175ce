/**
 * `.claude-plugin/plugin.json`, read as Claude Code reads it: only `name` is required, unknown
 * fields are warnings, a broken field is one line naming file and field and is left out, a file
 * that does not parse at all leaves the plugin named after its folder with its default folders.
 * Component paths start with `./` and never leave the plugin. A marketplace's entry can stand in
 * for a missing plugin.json and add parts (see readClaudeManifest).
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Problem } from "../../host/problem.ts";

export interface ClaudeManifest {
  name: string;
  displayName?: string;
  version?: string;
  description?: string;
  author?: string;
  homepage?: string;
  /** `commands` / `agents` / `outputStyles` replace the default folder; `skills` adds to it. */
  commands?: string[];
  agents?: string[];
  skills?: string[];
  outputStyles?: string[];
  /** hooks.json files besides hooks/hooks.json, or inline hook objects. */
  hooks: (string | Record<string, unknown>)[];
  /** As written (a `./path`, a list of them, or inline servers): main/mcp/plugin-servers.ts reads it. */
  mcpServers?: unknown;
  /** As written; listed as unsupported (lsp.ts). */
  lspServers?: unknown;
}

export interface ManifestRead {
  manifest: ClaudeManifest;
  errors: Problem[];
  warnings: Problem[];
}

const KNOWN = new Set([
  "$schema",
  "name",
  "displayName",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
  "defaultEnabled",
  "userConfig",
  "commands",
  "agents",
  "skills",
  "hooks",
  "mcpServers",
  "outputStyles",
  "lspServers",
  // A marketplace entry's, often copied into plugin.json; they describe, they load nothing.
  "category",
  "tags",
]);

const PATH_FIELDS = ["commands", "agents", "skills", "outputStyles"] as const;

/** A marketplace's entry for the plugin: it names a plugin without plugin.json and may add parts. */
export interface MarketEntry {
  /** marketplace.json, for messages. */
  file: string;
  entry: Record<string, unknown>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const COMPONENT_FIELDS = [...PATH_FIELDS, "hooks", "mcpServers", "lspServers"] as const;

/**
 * The plugin's manifest; with `market`, as Claude Code combines it with the marketplace's entry:
 * without plugin.json the entry names the plugin and the default folders hold its parts; the
 * entry's own parts are added to plugin.json's, or with `strict: false` replace them.
 */
export function readClaudeManifest(dir: string, market?: MarketEntry): ManifestRead {
  const file = path.join(dir, ".claude-plugin", "plugin.json");
  const entryName = market && typeof market.entry.name === "string" ? market.entry.name : "";
  const out: ManifestRead = {
    manifest: { name: NAME.test(entryName) ? entryName : path.basename(dir), hooks: [] },
    errors: [],
    warnings: [],
  };
  let data: unknown;
  // A marketplace may list a folder without plugin.json, as Claude Code allows (most of a big
  // marketplace's folders: checked for, not read and caught).
  let present = !market || existsSync(file);
  if (present)
    try {
      data = JSON.parse(readFileSync(file, "utf8"));
    } catch (err) {
      // Gone since it was checked for: as if it had not been there.
      present = !(market && (err as NodeJS.ErrnoException).code === "ENOENT");
      if (present) {
        const why = (err instanceof Error ? err.message : String(err)).split("\n")[0];
        out.errors.push({
          ...inManifest(file, `not valid JSON: ${why}`),
          cause: `loading the plugin's folders as "${out.manifest.name}"`,
        });
        return out;
      }
    }
  if (present) {
    if (typeof data !== "object" || data === null || Array.isArray(data)) {
      out.errors.push(inManifest(file, "expected a JSON object"));
      return out;
    }
    const m = data as Record<string, unknown>;
    for (const key of Object.keys(m))
      if (!KNOWN.has(key)) out.warnings.push(inManifest(file, `unknown field "${key}" ignored`));
    if (typeof m.name === "string" && NAME.test(m.name)) out.manifest.name = m.name;
    else badField(out, file, "name", "a plugin name (letters, digits, - _ .)");
    if (market?.entry.strict === false) {
      const declared = COMPONENT_FIELDS.filter((f) => m[f] !== undefined);
      if (declared.length > 0)
        out.warnings.push(
          inManifest(
            file,
            `${declared.join(", ")} ignored: the marketplace entry says strict: false, so it lists the plugin's parts`,
          ),
        );
      for (const f of declared) delete m[f];
    }
    readFields(out, dir, m, file);
  }
  if (market) {
    const where = `${market.file} (plugin "${out.manifest.name}")`;
    const e = market.entry;
    if (out.manifest.description === undefined && typeof e.description === "string")
      out.manifest.description = e.description;
    const parts: Record<string, unknown> = {};
    for (const f of COMPONENT_FIELDS) if (e[f] !== undefined) parts[f] = e[f];
    readFields(out, dir, parts, where);
  }
  return out;
}

function badField(out: ManifestRead, file: string, field: string, expected: string): void {
  out.errors.push({
    ...inManifest(file, `field "${field}": expected ${expected}`),
    suggestion: "ignored",
  });
}

/** Metadata and parts from plugin.json or a marketplace entry; parts add to what is there. */
function readFields(
  out: ManifestRead,
  dir: string,
  m: Record<string, unknown>,
  file: string,
): void {
  const bad = (field: string, expected: string) => badField(out, file, field, expected);
  for (const field of ["displayName", "version", "description", "homepage"] as const) {
    if (m[field] === undefined) continue;
    if (typeof m[field] === "string") out.manifest[field] = m[field];
    else bad(field, "text");
  }
  if (typeof m.author === "string") out.manifest.author = m.author;
  else if (
    typeof m.author === "object" &&
    m.author !== null &&
    typeof (m.author as { name?: unknown }).name === "string"
  )
    out.manifest.author = (m.author as { name: string }).name;
  else if (m.author !== undefined) bad("author", '{ "name": … }');

  for (const field of PATH_FIELDS) {
    if (m[field] === undefined) continue;
    const paths = pathList(m[field]);
    const inside = paths?.filter((p) => isInside(dir, p));
    if (!paths || inside!.length !== paths.length)
      bad(field, 'paths starting with "./" inside the plugin');
    if (inside && inside.length > 0)
      out.manifest[field] = [
        ...(out.manifest[field] ?? []),
        ...inside.map((p) => path.join(dir, p)),
      ];
  }
  if (m.mcpServers !== undefined) {
    if (out.manifest.mcpServers === undefined) out.manifest.mcpServers = m.mcpServers;
    else
      out.warnings.push(
        inManifest(file, 'field "mcpServers" ignored: plugin.json already names its MCP servers'),
      );
  }
  if (m.lspServers !== undefined) {
    if (out.manifest.lspServers === undefined) out.manifest.lspServers = m.lspServers;
    else
      out.warnings.push(
        inManifest(
          file,
          'field "lspServers" ignored: plugin.json already names its language servers',
        ),
      );
  }
  for (const field of ["hooks"] as const) {
    const v = m[field];
    if (v === undefined) continue;
    const items = Array.isArray(v) ? v : [v];
    items.forEach((item: unknown, i: number) => {
      const at = Array.isArray(v) ? `${field}[${i}]` : field;
      if (typeof item === "string" && isInside(dir, item))
        out.manifest[field].push(path.join(dir, item));
      else if (isRecord(item)) out.manifest[field].push(item);
      else bad(at, 'a path starting with "./" inside the plugin, or an object');
    });
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

function inManifest(file: string, title: string): Problem {
  return { source: "claude-plugins", file, title };
}

function pathList(v: unknown): string[] | null {
  if (typeof v === "string") return [v];
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v;
  return null;
}

/** `./x` and staying inside the plugin after resolving `..`. */
function isInside(dir: string, p: string): boolean {
  if (!p.startsWith("./")) return false;
  const rel = path.relative(dir, path.resolve(dir, p));
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
