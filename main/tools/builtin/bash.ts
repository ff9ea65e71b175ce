/** Bash: run a shell command in the working directory; timeouts and aborts kill its whole tree. */
import { z } from "zod";
import { defineTool } from "../define.ts";
import { DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS } from "../limits.ts";
import { ToolError } from "../types.ts";
import { runShell } from "./process-tree.ts";

export const bashTool = defineTool({
  name: "Bash",
  description:
    "Run a shell command (bash -c; cmd.exe on Windows) in the working directory. Returns stdout " +
    "and stderr interleaved, then the exit code. No terminal and no stdin: interactive programs " +
    `will not work. Default timeout ${DEFAULT_TIMEOUT_MS / 1000} s, at most ${MAX_TIMEOUT_MS / 1000} s; ` +
    "on timeout the command and everything it started is killed.",
  args: {
    command: z.string().min(1).describe("The command line to run"),
    timeout_ms: z
      .number()
      .int()
      .min(1)
      .max(MAX_TIMEOUT_MS)
      .optional()
      .describe(`Timeout in milliseconds (default ${DEFAULT_TIMEOUT_MS}, max ${MAX_TIMEOUT_MS})`),
  },
  parallel: false,
  // Running commands needs a yes.
  approval: "ask",
  timeoutMs: (args) => args.timeout_ms,
  async execute(args, ctx) {
    const result = await runShell(args.command, {
      cwd: ctx.workdir,
      signal: ctx.signal,
      keepChars: DEFAULT_MAX_OUTPUT_CHARS,
      onOutput: ctx.onOutput,
    });
    const output = result.output.replace(/\s+$/, "");
    const body = output === "" ? "(no output)" : output;
    if (result.aborted !== undefined) {
      const reason = result.aborted;
      const why =
        reason instanceof Error && reason.name === "TimeoutError"
          ? `Command timed out after ${ctx.timeoutMs} ms and was killed`
          : "Command was aborted and killed";
      throw new ToolError(`${body}\n[${why}]`);
    }
    if (result.exitCode === 0) return `${body}\n[exit code 0]`;
    const status =
      result.exitCode !== null ? `exit code ${result.exitCode}` : `killed by ${result.signal}`;
    throw new ToolError(`${body}\n[${status}]`);
  },
});
