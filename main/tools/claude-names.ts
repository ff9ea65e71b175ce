/**
 * Claude Code's tool names and input fields against Islet's, both ways: hooks are told Claude's
 * (`Edit` with `file_path`, not `Patch` with `path`) and their `updatedInput` comes back in
 * Claude's fields; agents and permission rules list Claude's names. One table for all of them.
 */
interface ToolNames {
  /** Islet's tool. */
  islet: string;
  /** Claude's names for it: the first is what hooks are told, the others match too. */
  claude: readonly string[];
  /**
   * Claude's tools that Islet's one stands in for in tool lists and permission rules, though a
   * hook never sees the name (Claude's MultiEdit is several Patch calls in Islet).
   */
  standsFor?: readonly string[];
  /** Islet's argument → Claude's input field, where the names differ. */
  fields?: Readonly<Record<string, string>>;
}

const TABLE: readonly ToolNames[] = [
  { islet: "Read", claude: ["Read"], fields: { path: "file_path" } },
  { islet: "Write", claude: ["Write"], fields: { path: "file_path" } },
  { islet: "Patch", claude: ["Edit"], standsFor: ["MultiEdit"], fields: { path: "file_path" } },
  { islet: "Bash", claude: ["Bash"] },
  { islet: "Glob", claude: ["Glob"] },
  {
    islet: "Grep",
    claude: ["Grep"],
    fields: { case_insensitive: "-i", context: "-C", max_results: "head_limit" },
  },
  { islet: "Ls", claude: ["LS"] },
  // Claude Code renamed its Task tool Agent; plugins use both.
  { islet: "Task", claude: ["Task", "Agent"] },
  { islet: "TodoWrite", claude: ["TodoWrite"] },
];

/** Claude Code's built-in tools Islet has no counterpart for (an agent listing one loses it). */
const CLAUDE_ONLY: ReadonlySet<string> = new Set([
  "WebFetch",
  "WebSearch",
  "NotebookEdit",
  "NotebookRead",
  "BashOutput",
  "KillShell",
  "KillBash",
  "SlashCommand",
  "ExitPlanMode",
  "EnterPlanMode",
  "AskUserQuestion",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
  "SendMessage",
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskUpdate",
  "TaskStop",
  "TaskOutput",
  "TeamCreate",
  "TeamDelete",
  "Workflow",
]);

const BY_ISLET = new Map(TABLE.map((t) => [t.islet, t]));
const BY_CLAUDE = new Map(
  TABLE.flatMap((t) => [...t.claude, ...(t.standsFor ?? [])].map((name) => [name, t] as const)),
);

/** The name Claude Code gives an Islet tool (its own name for tools Claude lacks). */
export function claudeToolName(islet: string): string {
  return BY_ISLET.get(islet)?.claude[0] ?? islet;
}

/** Every name a hook matcher may use for an Islet tool: Claude's and Islet's own. */
export function toolNamesFor(islet: string): readonly string[] {
  const row = BY_ISLET.get(islet);
  return row ? [...new Set([...row.claude, islet])] : [islet];
}

/** The Islet tool a Claude name stands for (the name itself when it is not Claude's). */
export function isletToolName(name: string): string {
  return BY_CLAUDE.get(name)?.islet ?? name;
}

/** Whether the name is a Claude Code built-in that Islet does not have. */
export function isClaudeOnlyTool(name: string): boolean {
  return CLAUDE_ONLY.has(name);
}

function renamed(
  input: Record<string, unknown>,
  fields: Readonly<Record<string, string>>,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) out[fields[key] ?? key] = value;
  return out;
}

/** An Islet tool's arguments in Claude's field names, as a hook reads `tool_input`. */
export function toClaudeInput(
  islet: string,
  args: Record<string, unknown>,
): Record<string, unknown> {
  const fields = BY_ISLET.get(islet)?.fields;
  return fields ? renamed(args, fields) : args;
}

/** A hook's `updatedInput` (Claude's fields; Islet's own are kept) as the Islet tool's arguments. */
export function toIsletInput(
  islet: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const fields = BY_ISLET.get(islet)?.fields;
  if (!fields) return input;
  return renamed(input, Object.fromEntries(Object.entries(fields).map(([i, c]) => [c, i])));
}

/**
 * A tool list as Claude's agents write it (`Read, Edit, MultiEdit, LS, Agent`; specifiers already
 * cut) as Islet's tool names, once each; `missing`: Claude built-ins Islet has none of.
 */
export function isletToolList(names: readonly string[]): { tools: string[]; missing: string[] } {
  const missing = names.filter(isClaudeOnlyTool);
  return { tools: [...new Set(names.map(isletToolName))], missing };
}

export { claudeToolResponse } from "./claude-tool-response.ts";
