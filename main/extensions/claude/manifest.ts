/**
 * `.claude-plugin/plugin.json`, read as Claude Code reads it: only `name` is required, unknown
 * fields are warnings, a broken field is one line naming file and field and is left out, a file
 * that does not parse at all leaves the plugin named after its folder with its default folders.
 * Component paths start with `./` and never leave the plugin.
 */
import { readFileSync } from "node:fs";
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
]);

const PATH_FIELDS = ["commands", "agents", "skills", "outputStyles"] as const;

export function readClaudeManifest(dir: string): ManifestRead {
  const file = path.join(dir, ".claude-plugin", "plugin.json");
  const out: ManifestRead = {
    manifest: { name: path.basename(dir), hooks: [] },
    errors: [],
    warnings: [],
  };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    const why = (err instanceof Error ? err.message : String(err)).split("\n")[0];
    out.errors.push({
      ...inManifest(file, `not valid JSON: ${why}`),
      cause: `loading the plugin's folders as "${out.manifest.name}"`,
    });
    return out;
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    out.errors.push(inManifest(file, "expected a JSON object"));
    return out;
  }
  const m = data as Record<string, unknown>;
  const bad = (field: string, expected: string) =>
    out.errors.push({
      ...inManifest(file, `field "${field}": expected ${expected}`),
      suggestion: "ignored",
    });
  for (const key of Object.keys(m))
    if (!KNOWN.has(key)) out.warnings.push(inManifest(file, `unknown field "${key}" ignored`));

  if (typeof m.name === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(m.name))
    out.manifest.name = m.name;
  else bad("name", "a plugin name (letters, digits, - _ .)");
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
    if (inside && inside.length > 0) out.manifest[field] = inside.map((p) => path.join(dir, p));
  }
  out.manifest.mcpServers = m.mcpServers;
  out.manifest.lspServers = m.lspServers;
  for (const field of ["hooks"] as const) {
    const v = m[field];
    if (v === undefined) continue;
    const items = Array.isArray(v) ? v : [v];
    items.forEach((item: unknown, i: number) => {
      const at = Array.isArray(v) ? `${field}[${i}]` : field;
      if (typeof item === "string" && isInside(dir, item))
        out.manifest[field].push(path.join(dir, item));
      else if (typeof item === "object" && item !== null && !Array.isArray(item))
        out.manifest[field].push(item as Record<string, unknown>);
      else bad(at, 'a path starting with "./" inside the plugin, or an object');
    });
  }
  return out;
}

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
