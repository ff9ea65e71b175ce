/**
 * Output styles, as Claude Code has them: `output-styles/*.md` with `name`, `description` and
 * `keep-coding-instructions` frontmatter, from the homes' `config/output-styles/` and Claude Code
 * plugins (named `plugin:style`). The chosen style's body goes at the end of the system prompt;
 * unless it keeps the coding instructions, it takes the place of the agent's own prompt.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { configDir, homeLayers, type Homes } from "../../config/homes.ts";
import {
  fileProblem,
  looseText,
  readMarkdownFile,
  type Loaded,
} from "../../config/frontmatter-fields.ts";
import { markdownFiles } from "../../config/markdown-walk.ts";

export interface OutputStyle {
  name: string;
  description: string;
  /** The instructions the system prompt gets. */
  body: string;
  /** Claude's `keep-coding-instructions`: the agent's prompt stays, the body is added after it. */
  keepCodingInstructions: boolean;
  file: string;
}

/** What a session keeps of its chosen style (AgentState.outputStyle). */
export type ActiveOutputStyle = Pick<OutputStyle, "name" | "body" | "keepCodingInstructions">;

const shape = {
  name: looseText.optional(),
  description: looseText.optional(),
  "keep-coding-instructions": z.boolean().optional(),
};

/** Reads one style file; throws one line naming file and field. */
export function readOutputStyle(file: string, namespace?: string): Loaded<OutputStyle> {
  const { data, body, warnings } = readMarkdownFile(file, readFileSync(file, "utf8"), shape);
  const base = data.name?.trim() || path.basename(file).replace(/\.md$/i, "");
  const style: OutputStyle = {
    name: namespace ? `${namespace}:${base}` : base,
    description: data.description ?? "",
    body: body.trim(),
    keepCodingInstructions: data["keep-coding-instructions"] ?? false,
    file,
  };
  return { items: [style], errors: [], warnings };
}

/**
 * Every style: the global home's, the project's (winning on a clash; only once the folder is
 * trusted: a style can replace the whole system prompt), then each plugin's.
 * `plugins`: [namespace, files] per enabled Claude Code plugin.
 */
export function findOutputStyles(
  homes: Homes,
  plugins: readonly { namespace: string; files: readonly string[] }[],
  opts: { trustedProject: boolean } = { trustedProject: true },
): Loaded<OutputStyle> {
  const byName = new Map<string, OutputStyle>();
  const out: Loaded<OutputStyle> = { items: [], errors: [], warnings: [] };
  const add = (file: string, namespace?: string): void => {
    try {
      const found = readOutputStyle(file, namespace);
      out.warnings.push(...found.warnings);
      for (const s of found.items) byName.set(s.name.toLowerCase(), s);
    } catch (err) {
      out.errors.push(fileProblem(err, file));
    }
  };
  const homesRead = homeLayers(homes).filter((h) => h === homes.global || opts.trustedProject);
  for (const home of homesRead)
    for (const f of markdownFiles(configDir(home, "output-styles"), 1)) add(f.file);
  for (const p of plugins) for (const file of p.files) add(file, p.namespace);
  out.items = [...byName.values()];
  return out;
}
