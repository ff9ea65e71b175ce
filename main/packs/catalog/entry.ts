/**
 * A plugin-pack catalog file (SPEC §7): YAML with a `packs:` list, each pack with name,
 * description, url, ref, tags and author (subpath too, for a pack inside a bigger repository).
 * Read leniently: a broken entry is one line naming the file, the line, the entry and the field,
 * and every other entry is still listed; unknown fields are ignored (newer catalogs may add some).
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import { describeValue } from "../../code-plugins/loader/yaml-errors.ts";
import type { Problem } from "../../host/problem.ts";
import { isGitSource } from "./origin-url.ts";

export interface CatalogEntry {
  /** The folder it installs as, and what the catalog calls it. */
  name: string;
  description: string;
  /** A git URL or `owner/repo` (GitHub). */
  url: string;
  ref?: string;
  subpath?: string;
  tags: string[];
  author?: string;
}

export interface ParsedCatalog {
  entries: CatalogEntry[];
  /** One each, at `file:line`: `packs[i] "name": field: what is wrong` (the entry is left out). */
  problems: Problem[];
  /** The file as a whole could not be used (bad YAML, no `packs:` list); then entries is empty. */
  error: string | null;
}

export const PACK_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_TEXT = 500;
const MAX_TAGS = 20;

type Check = { ok: true; value: unknown } | { ok: false; what: string };

const text =
  (required: boolean, max = MAX_TEXT) =>
  (v: unknown): Check => {
    if (v === undefined || v === null)
      return required ? { ok: false, what: "missing" } : { ok: true, value: undefined };
    if (typeof v !== "string" && typeof v !== "number")
      return { ok: false, what: `expected text, got ${describeValue(v)}` };
    const s = String(v).trim();
    if (required && s === "") return { ok: false, what: "empty" };
    if (s.length > max) return { ok: false, what: `longer than ${max} characters` };
    return { ok: true, value: s === "" ? undefined : s };
  };

const FIELDS: Record<string, (v: unknown) => Check> = {
  name: (v) => {
    const c = text(true, 64)(v);
    if (c.ok && !PACK_NAME.test(c.value as string))
      return {
        ok: false,
        what: `expected letters, digits, ".", "-" or "_", got ${describeValue(v)}`,
      };
    return c;
  },
  description: text(false),
  url: (v) => {
    const c = text(true, 1000)(v);
    if (c.ok && !isGitSource(c.value as string))
      return {
        ok: false,
        what: `expected a git URL (https://, ssh://, git://, file://, git@host:path) or owner/repo, got ${describeValue(v)}`,
      };
    return c;
  },
  ref: text(false, 200),
  subpath: text(false, 500),
  author: text(false, 200),
  tags: (v) => {
    if (v === undefined || v === null) return { ok: true, value: [] };
    const list = typeof v === "string" ? v.split(",") : v;
    if (!Array.isArray(list))
      return { ok: false, what: `expected a list, got ${describeValue(v)}` };
    const tags: string[] = [];
    for (const t of list) {
      if (typeof t !== "string" && typeof t !== "number")
        return { ok: false, what: `expected a list of words, got ${describeValue(t)} in it` };
      const tag = String(t).trim().toLowerCase();
      if (tag !== "" && !tags.includes(tag)) tags.push(tag);
    }
    if (tags.length > MAX_TAGS) return { ok: false, what: `more than ${MAX_TAGS} tags` };
    return { ok: true, value: tags };
  },
};

/** The line a node starts on, when the document kept its position. */
function lineOf(node: Node | null | undefined, lines: LineCounter): number | undefined {
  const start = node?.range?.[0];
  return start === undefined ? undefined : lines.linePos(start).line;
}

export function parseCatalog(source: string, file: string): ParsedCatalog {
  const lines = new LineCounter();
  const doc = parseDocument(source, { lineCounter: lines, prettyErrors: false });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = lines.linePos(yamlError.pos[0]);
    const where = `${file}:${pos.line}:${pos.col}`;
    return {
      entries: [],
      problems: [],
      error: `${where}: invalid YAML: ${yamlError.message.split("\n")[0]}`,
    };
  }
  const root = doc.contents;
  const list = isMap(root) ? root.get("packs", true) : isSeq(root) ? root : undefined;
  if (!isSeq(list))
    return {
      entries: [],
      problems: [],
      error: `${file}: expected a "packs:" list of plugin packs (name, description, url, ref, tags, author)`,
    };

  const entries: CatalogEntry[] = [];
  const problems: Problem[] = [];
  const seen = new Set<string>();
  list.items.forEach((item, i) => {
    const problem = (node: Node | null | undefined, title: string): Problem => {
      const line = lineOf(node, lines) ?? lineOf(item as Node, lines);
      return { source: "catalog", file, ...(line === undefined ? {} : { line }), title };
    };
    if (!isMap(item)) {
      problems.push(problem(item as Node, `packs[${i}]: expected a map with name and url`));
      return;
    }
    const raw = item.toJSON() as Record<string, unknown>;
    const label = typeof raw.name === "string" ? ` "${raw.name}"` : "";
    const entry: Record<string, unknown> = {};
    for (const [field, check] of Object.entries(FIELDS)) {
      const result = check(raw[field]);
      if (!result.ok) {
        const node = item.get(field, true);
        const where = isScalar(node) || isSeq(node) || isMap(node) ? node : (item as Node);
        problems.push(problem(where, `packs[${i}]${label}: ${field}: ${result.what}`));
        return;
      }
      if (result.value !== undefined) entry[field] = result.value;
    }
    const parsed = entry as unknown as CatalogEntry;
    parsed.description ??= "";
    if (seen.has(parsed.name.toLowerCase())) {
      problems.push(
        problem(
          item as Node,
          `packs[${i}]${label}: name: listed twice in this catalog (the first is kept)`,
        ),
      );
      return;
    }
    seen.add(parsed.name.toLowerCase());
    entries.push(parsed);
  });
  return { entries, problems, error: null };
}
