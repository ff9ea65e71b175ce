/**
 * Test support for shell hooks around a Task's sub-agent: the files of a home whose `helper` agent
 * the model starts with its first answer (engine/testing.ts's startEngineRig runs them).
 */
import type { ScriptedResponse } from "../../providers/testing/index.ts";

/** A workspace, the user's hooks file `config/hooks/NAME` holding `hooks`, and a helper agent. */
export function helperAgentFiles(hookFile: string, hooks: object): Record<string, string> {
  return {
    "work/a.txt": "a\n",
    [`home/config/hooks/${hookFile}`]: JSON.stringify(hooks),
    "home/config/agents/helper.md": "---\ndescription: Helps\ntools: Read\n---\nYou help.\n",
  };
}

/** The model's answer that starts the helper agent through Task (call id `call_task`). */
export const START_HELPER: ScriptedResponse = {
  toolCalls: [
    { id: "call_task", name: "Task", arguments: { subagent_type: "helper", prompt: "Sum up" } },
  ],
};
