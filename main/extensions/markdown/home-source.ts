/**
 * Custom commands (`config/commands/*.md`) and skills (`skills/`) of the global and the project
 * home; the project's are registered last, so they win over the global ones of the same name.
 */
import path from "node:path";
import { configDir, homeLayers, type Homes } from "../../config/homes.ts";
import type { ContributionRegistrar } from "../registrar.ts";
import { registerMarkdownCommands } from "./command.ts";
import { loadCommands } from "./commands.ts";
import { registerSkills } from "./skill-command.ts";
import { loadSkills } from "./skills.ts";

export function loadHomeMarkdown(
  registrar: ContributionRegistrar,
  homes: Homes,
  warn: (line: string) => void,
): void {
  for (const home of homeLayers(homes)) {
    const commands = loadCommands(configDir(home, "commands"));
    const skills = loadSkills(path.join(home, "skills"));
    for (const line of [
      ...commands.errors,
      ...skills.errors,
      ...commands.warnings,
      ...skills.warnings,
    ])
      warn(line);
    registerMarkdownCommands(registrar, commands.items, { source: "custom" });
    registerSkills(registrar, skills.items, { source: "custom" });
  }
}
