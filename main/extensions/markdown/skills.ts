/**
 * Skills: `skills/NAME/SKILL.md` (with any files beside it) and `skills/NAME.md`. Only the name
 * and description are in context; the body loads when the skill is used. Reusable by any source.
 */
import { readdirSync, statSync, type Stats } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { firstLine } from "./commands.ts";
import { positionalHintProblem } from "./expand.ts";
import {
  fileProblem,
  hintText,
  looseText,
  readMarkdownFile,
  toolList,
  type Loaded,
} from "../../config/frontmatter-fields.ts";
import type { Problem } from "../../host/problem.ts";
import { indexedParse } from "../../config/markdown-index.ts";

export interface Skill {
  name: string;
  bareName: string;
  namespace?: string;
  description: string;
  whenToUse?: string;
  argumentHint?: string;
  /** Names bound to the argument words (`$name` in the body). */
  argNames: string[];
  allowedTools?: string[];
  disallowedTools?: string[];
  model?: string;
  /** False: only the model may use it (`user-invocable: false`); `/NAME` says so. */
  userInvocable: boolean;
  /** False: not listed to the model (`disable-model-invocation: true`). */
  modelInvocable: boolean;
  body: string;
  file: string;
  /** The skill's own folder (SKILL.md form); null for a lone NAME.md. */
  dir: string | null;
}

const argNames = z
  .union([z.string(), z.array(z.union([z.string(), z.object({ name: z.string() }).loose()]))])
  .transform((v) =>
    typeof v === "string"
      ? v.split(/[\s,]+/).filter(Boolean)
      : v.map((a) => (typeof a === "string" ? a : a.name)),
  );

const COMMAND_NAME = /^[A-Za-z0-9][\w.-]*$/;

export const SKILL_FIELDS = {
  // Checked in parseSkillFile: a name that is not a command name falls back to the folder's.
  name: looseText.optional(),
  description: looseText.optional(),
  when_to_use: looseText.optional(),
  "argument-hint": hintText.optional(),
  arguments: argNames.optional(),
  args: argNames.optional(),
  "allowed-tools": toolList.optional(),
  uses_tools: toolList.optional(),
  "disallowed-tools": toolList.optional(),
  "disable-model-invocation": z.boolean().optional(),
  "user-invocable": z.boolean().optional(),
  model: z.string().min(1).optional(),
  license: z.unknown().optional(),
  metadata: z.unknown().optional(),
  version: z.unknown().optional(),
  // Claude Code's, read so they are not reported as unknown; they change nothing in Islet.
  effort: z.unknown().optional(),
};

export function parseSkillFile(
  file: string,
  text: string,
  opts: { namespace?: string; dir: string | null },
): { skill: Skill; warnings: Problem[] } {
  const { data, body, warnings } = readMarkdownFile(file, text, SKILL_FIELDS);
  const fromPath = opts.dir ? path.basename(opts.dir) : path.basename(file).replace(/\.md$/i, "");
  let bareName = data.name ?? fromPath;
  if (!COMMAND_NAME.test(bareName)) {
    // Real skills use display names ("Writing Hookify Rules"); Claude Code keeps them by folder.
    warnings.push({
      source: "markdown",
      file,
      title: `name: "${bareName}" is not a command name (letters, digits, '.', '_', '-'); loaded as "${fromPath}"`,
    });
    bareName = fromPath;
  }
  const prompt = body.trim();
  const positional = positionalHintProblem(file, prompt, data["argument-hint"]);
  if (positional) warnings.push(positional);
  return {
    skill: {
      name: opts.namespace ? `${opts.namespace}:${bareName}` : bareName,
      bareName,
      namespace: opts.namespace,
      description: data.description ?? firstLine(prompt),
      whenToUse: data.when_to_use,
      argumentHint: data["argument-hint"],
      argNames: data.arguments ?? data.args ?? [],
      allowedTools: data["allowed-tools"] ?? data.uses_tools,
      disallowedTools: data["disallowed-tools"],
      model: data.model,
      userInvocable: data["user-invocable"] !== false,
      modelInvocable: data["disable-model-invocation"] !== true,
      body: prompt,
      file,
      dir: opts.dir,
    },
    warnings,
  };
}

/** Its stats if `p` is a file (no exception for a missing one: most folders have no SKILL.md). */
function fileStats(p: string): Stats | undefined {
  try {
    const st = statSync(p, { throwIfNoEntry: false });
    return st?.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

/** A skill file, from the markdown index when unchanged since it was parsed (body read on use). */
function readSkillFile(
  file: string,
  opts: { namespace?: string; dir: string | null },
  stats?: Stats,
): { skill: Skill; warnings: Problem[] } {
  const variant = `${opts.namespace ?? ""}\0${opts.dir ?? ""}`;
  const parse = (text: string) => {
    const parsed = parseSkillFile(file, text, opts);
    return { item: parsed.skill, warnings: parsed.warnings };
  };
  const { item, warnings } = indexedParse("skill", file, variant, "body", parse, stats);
  return { skill: item, warnings };
}

/** One skill file (a plugin that is a single skill: `SKILL.md` at its root). */
export function loadSkill(
  file: string,
  opts: { namespace?: string } = {},
): { skill: Skill; warnings: Problem[] } {
  return readSkillFile(file, { namespace: opts.namespace, dir: path.dirname(file) });
}

/** The skills in `dir`: each `NAME/SKILL.md` and `NAME.md`; broken ones are reported and skipped. */
export function loadSkills(dir: string, opts: { namespace?: string } = {}): Loaded<Skill> {
  const out: Loaded<Skill> = { items: [], errors: [], warnings: [] };
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith(".")) continue;
    const folder = e.isDirectory() ? path.join(dir, e.name) : null;
    const file = folder ? path.join(folder, "SKILL.md") : path.join(dir, e.name);
    const stats = folder ? fileStats(file) : undefined;
    if (folder ? !stats : !/\.md$/i.test(e.name) || !e.isFile()) continue;
    try {
      const where = { namespace: opts.namespace, dir: folder };
      const { skill, warnings } = readSkillFile(file, where, stats);
      out.items.push(skill);
      out.warnings.push(...warnings);
    } catch (err) {
      out.errors.push(fileProblem(err, file));
    }
  }
  return out;
}
