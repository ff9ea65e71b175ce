/**
 * PostToolUse's `tool_response` in the shape Claude Code gives its hooks, per tool, built from
 * Islet's call and its text result. Read, Bash, Write and Edit follow Claude's shapes; tools whose
 * response Claude does not document (Glob, Grep, LS, Task, TodoWrite, MCP and Islet's own) get
 * `{output, success}`, and a failed call `{error, success: false}`.
 */
import path from "node:path";

type Response = Record<string, unknown>;

/** Read's numbered lines (`     4\tline 4`) as Claude's `file` record: the text, unnumbered. */
function readResponse(filePath: string, output: string, offset: unknown): Response {
  const lines = output.split("\n");
  let total: number | undefined;
  const trailer = /^\[showing lines \d+-\d+ of (\d+); use offset to read more\]$/.exec(
    lines.at(-1) ?? "",
  );
  if (trailer) {
    total = Number(trailer[1]);
    lines.pop();
  }
  const numbered = lines.every((l) => /^ *\d+\t/.test(l));
  const text = numbered && output !== "" ? lines.map((l) => l.replace(/^ *\d+\t/, "")) : [];
  const startLine = typeof offset === "number" ? offset : 1;
  return {
    type: "text",
    file: {
      filePath,
      content: text.join("\n"),
      numLines: text.length,
      startLine,
      totalLines: total ?? startLine - 1 + text.length,
    },
  };
}

/** Bash's output without Islet's `[exit code 0]` line; stdout and stderr come interleaved. */
function bashResponse(output: string): Response {
  const stdout = output.replace(/\n?\[exit code 0\]$/, "");
  return {
    stdout: stdout === "(no output)" ? "" : stdout,
    stderr: "",
    interrupted: false,
    isImage: false,
  };
}

export function claudeToolResponse(
  islet: string,
  args: Record<string, unknown>,
  outcome: { result: string; error: string },
  workdir: string,
): Response {
  if (outcome.error) return { error: outcome.error, success: false };
  const filePath = typeof args.path === "string" ? path.resolve(workdir, args.path) : undefined;
  switch (islet) {
    case "Read":
      if (filePath) return readResponse(filePath, outcome.result, args.offset);
      break;
    case "Bash":
      return bashResponse(outcome.result);
    case "Write":
      // `success` is in Claude's documented example of a Write's response.
      if (filePath)
        return {
          type: outcome.result.startsWith("Updated") ? "update" : "create",
          filePath,
          content: args.content,
          success: true,
        };
      break;
    case "Patch":
      if (filePath)
        return {
          filePath,
          oldString: args.old_string,
          newString: args.new_string,
          replaceAll: args.replace_all === true,
          userModified: false,
          success: true,
        };
      break;
  }
  return { output: outcome.result, success: true };
}
