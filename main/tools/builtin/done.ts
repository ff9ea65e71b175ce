/** Done: the model declares the task finished; the agent loop stops after this step. */
import { z } from "zod";
import { defineTool } from "../define.ts";

export const doneTool = defineTool({
  name: "Done",
  description:
    "Call when the task is complete, with a short summary of what was done (and anything left " +
    "undone). The run ends after this call.",
  args: {
    summary: z.string().min(1).describe("What was accomplished"),
  },
  parallel: false,
  approval: "allow",
  async execute(args, ctx) {
    ctx.state.done = { summary: args.summary };
    return "Task marked as done.";
  },
});
