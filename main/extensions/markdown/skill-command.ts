/**
 * A skill as the user and the model reach it: `/NAME args` runs it as a command (its
 * allowed-tools limit that turn), the listing tells the model it exists, and the Skill tool
 * (skill-tool.ts) loads its body. Skills live in the command registry, so they layer, shadow and
 * unload like commands and one lookup serves all three.
 */
import { readdir } from "node:fs/promises";
import path from "node:path";
import type { CommandRegistry } from "../../commands/registry.ts";
import type { SlashCommand } from "../../commands/types.ts";
import type { ContributionRegistrar } from "../../contributions/registrar.ts";
import type { CommandOrigin } from "./command.ts";
import { expandBody } from "./expand.ts";
import { toolPatterns } from "../../config/frontmatter-fields.ts";
import type { Skill } from "./skills.ts";
import { leftOut, listingOf, type ListedItem, type Listing } from "../../tools/listing.ts";

export interface SkillCommand extends SlashCommand {
  kind: "skill";
  skill: Skill;
  vars: Record<string, string>;
}

export function isSkillCommand(c: SlashCommand | undefined): c is SkillCommand {
  return c?.kind === "skill" && "skill" in c;
}

/** The skill's body with its arguments and paths substituted. */
export function expandSkill(
  cmd: SkillCommand,
  args: string,
  ctx: { workdir: string; shell(command: string): Promise<string> },
): Promise<string> {
  const vars = cmd.skill.dir ? { ...cmd.vars, CLAUDE_SKILL_DIR: cmd.skill.dir } : cmd.vars;
  return expandBody(cmd.skill.body, args, { ...ctx, vars, argNames: cmd.skill.argNames });
}

export function skillSlashCommand(skill: Skill, origin: CommandOrigin): SkillCommand {
  const command: SkillCommand = {
    name: skill.name,
    description: skill.description,
    hints: skill.argumentHint,
    source: origin.source,
    plugin: origin.plugin,
    kind: "skill",
    skill,
    vars: origin.vars ?? {},
    async run(args, env) {
      if (!skill.userInvocable)
        throw new Error(
          `/${skill.name} is for the model only (user-invocable: false in ${skill.file})`,
        );
      const body = await expandSkill(command, args, env);
      // As the Skill tool gives it: where the files the body mentions are.
      const folder = skill.dir ? await skillFolderText(skill.dir) : "";
      return {
        output: folder ? `${body}\n\n${folder}` : body,
        forward: true,
        preApproved: skill.allowedTools,
        disallowedTools: skill.disallowedTools && toolPatterns(skill.disallowedTools),
        model: skill.model,
      };
    },
  };
  return command;
}

export function registerSkills(
  registrar: ContributionRegistrar,
  skills: readonly Skill[],
  origin: CommandOrigin,
): void {
  for (const skill of skills) {
    const command = skillSlashCommand(skill, origin);
    registrar.command(command);
    if (skill.namespace)
      registrar.command({ ...command, name: skill.bareName, aliasOf: skill.name });
  }
}

/** Files beside a SKILL.md (relative paths, a few levels deep, at most `limit`). */
export async function skillFiles(dir: string, limit = 50): Promise<string[]> {
  const out: string[] = [];
  const visit = async (rel: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (out.length >= limit || e.name.startsWith(".")) continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && depth < 3) await visit(p, depth + 1);
      else if (e.isFile() && !(rel === "" && e.name === "SKILL.md")) out.push(p);
    }
  };
  await visit("", 0);
  return out;
}

/** The skill's folder and the files beside its SKILL.md, for the model ("" when it has none). */
export async function skillFolderText(dir: string): Promise<string> {
  const files = await skillFiles(dir);
  if (files.length === 0) return "";
  return (
    `Files in the skill's folder ${dir} (read with Read when needed):\n` +
    files.map((f) => `- ${f}`).join("\n")
  );
}

/**
 * The model's list of skills: one line each, rebuilt only when the commands change (so a turn
 * pays a version check, not a walk over every skill). A turn over its prompt budget lists only
 * the skills it chose (`text(keep)`).
 */
export function skillListing(commands: CommandRegistry): Listing {
  let version = -1;
  let cached: ListedItem[] = [];
  const items = (): readonly ListedItem[] => {
    if (version === commands.version) return cached;
    version = commands.version;
    cached = commands
      .list()
      .filter(isSkillCommand)
      .filter((c) => c.skill.modelInvocable)
      .map((c) => {
        const when = c.skill.whenToUse ? ` (${c.skill.whenToUse})` : "";
        return {
          kind: "skill",
          name: c.name,
          description: c.description,
          ...(c.skill.whenToUse ? { whenToUse: c.skill.whenToUse } : {}),
          line: `- ${c.name}: ${c.description}${when}`,
        };
      });
    return cached;
  };
  return listingOf(items, listingText);
}

function listingText(items: readonly ListedItem[], left: number): string {
  return items.length === 0 && left === 0
    ? ""
    : [
        "<skills>",
        "Skills you can load with the Skill tool when a task matches one (its instructions are not shown until you do):",
        ...items.map((i) => i.line),
        ...(left > 0 ? [leftOut(left, "skills")] : []),
        "</skills>",
      ].join("\n");
}
