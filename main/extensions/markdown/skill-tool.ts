/** The `Skill` tool: the model loads a listed skill's instructions, and learns its folder's files. */
import { z } from "zod";
import type { CommandRegistry } from "../../commands/registry.ts";
import { defineTool } from "../../tools/define.ts";
import { ToolError, type Tool } from "../../tools/types.ts";
import { bashTool } from "../../tools/builtin/bash.ts";
import { expandSkill, isSkillCommand, skillFolderText } from "./skill-command.ts";
import { toolPatterns } from "../../config/frontmatter-fields.ts";
import { shellDecidedBy } from "./shell.ts";

export function createSkillTool(deps: {
  commands: CommandRegistry;
  workdir: string;
  shell(command: string): Promise<string>;
}): Tool {
  const tool = defineTool({
    name: "Skill",
    description:
      "Load a skill listed under <skills> in the system prompt: returns its instructions (follow " +
      "them) and the files in its folder, which you read with Read only when you need them.",
    args: {
      skill: z.string().min(1).describe("The skill's name as listed"),
      args: z.string().optional().describe("Arguments for the skill, if it takes any"),
    },
    parallel: true,
    // Loading a skill's text (its !`cmd` lines ask as Bash does).
    approval: "allow",
    source: "extension",
    async execute(args, ctx) {
      const found = deps.commands.get(args.skill);
      const cmd = isSkillCommand(found) ? found : undefined;
      if (!cmd || !cmd.skill.modelInvocable) {
        const known = deps.commands
          .list()
          .filter(isSkillCommand)
          .map((c) => c.name);
        throw new ToolError(
          `no skill "${args.skill}"; skills: ${known.length > 0 ? known.join(", ") : "none"}`,
        );
      }
      // Its !`cmd` lines are asked of the conversation's window when the turn has one.
      const approve = ctx.approve;
      const shell = approve
        ? shellDecidedBy(deps.workdir, (command) => approve(bashTool, { command }, ctx.signal, []))
        : deps.shell;
      const body = await expandSkill(cmd, args.args ?? "", { workdir: deps.workdir, shell });
      // As `/NAME` does for its turn: the skill's tool limits hold for the rest of this one.
      const { allowedTools, disallowedTools } = cmd.skill;
      ctx.limitTurn?.({
        preApproved: allowedTools,
        disallowedTools: disallowedTools && toolPatterns(disallowedTools),
      });
      const parts = [`<skill name="${cmd.name}">\n${body}\n</skill>`];
      const folder = cmd.skill.dir ? await skillFolderText(cmd.skill.dir) : "";
      if (folder) parts.push(folder);
      return parts.join("\n\n");
    },
  });
  // Its skills are what a prompt budget counts (the listing), not the tool that loads them.
  return { ...tool, alwaysOffered: true };
}
