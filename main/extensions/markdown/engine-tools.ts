/**
 * What the engine gets from the Markdown extensions at start: the skills listed to the model (a
 * prompt fragment read at each call), the `Skill` tool that loads one, and the `Task` tool that
 * runs a sub-agent.
 */
import type { Contributions } from "../../contributions/contributions.ts";
import { KEEP_ALL } from "../../tools/listing.ts";
import { skillListing } from "./skill-command.ts";
import { createSkillTool } from "./skill-tool.ts";
import { subAgentRunner } from "./sub-agent.ts";
import { createTaskTool } from "./task-tool.ts";

type RunnerArgs = Parameters<typeof subAgentRunner>;

export function registerSkillAndTaskTools(
  extensions: Contributions,
  opts: {
    workdir: string;
    /** Runs a skill's !`cmd` line through the approval policy. */
    shell(command: string): Promise<string>;
    /** A sub-agent's engine dependencies. */
    subAgentDeps: RunnerArgs[1];
    /** SubagentStop hooks. */
    subagentStop: RunnerArgs[2];
    /** SubagentStart hooks. */
    subagentStart?: RunnerArgs[3];
  },
): void {
  const skills = skillListing(extensions.commands);
  extensions.promptFragments.add({
    source: "skills",
    get text() {
      return skills.text(KEEP_ALL);
    },
    listing: skills,
  });
  extensions.tools.register(
    createSkillTool({ commands: extensions.commands, workdir: opts.workdir, shell: opts.shell }),
  );
  extensions.tools.register(
    createTaskTool(
      subAgentRunner(extensions.agents, opts.subAgentDeps, opts.subagentStop, opts.subagentStart),
    ),
  );
}
