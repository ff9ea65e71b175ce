/** Markdown files with a YAML frontmatter block (agents, commands, skills). */
import { parse as parseYaml } from "yaml";
import { cachedParse } from "./frontmatter-cache.ts";

export interface FrontmatterDoc {
  data: Record<string, unknown>;
  body: string;
}

const FENCE = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/;

/** Throws an Error with the YAML problem; callers add the file name. */
export function parseFrontmatter(text: string): FrontmatterDoc {
  const src = text.replace(/^\uFEFF/, "");
  const m = FENCE.exec(src);
  if (!m) return { data: {}, body: src };
  const parsed: unknown = m[1].trim() === "" ? {} : cachedParse(m[1], (b) => parseYaml(b));
  if (parsed !== null && (typeof parsed !== "object" || Array.isArray(parsed))) {
    throw new Error("frontmatter must be a YAML mapping");
  }
  return { data: (parsed ?? {}) as Record<string, unknown>, body: src.slice(m[0].length) };
}
