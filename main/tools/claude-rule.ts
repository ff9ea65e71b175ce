/**
 * Claude Code's permission rule syntax, as its hooks' `if` field and its commands' and skills'
 * `allowed-tools` write it: `Bash`, `Bash(git commit:*)`, `Bash(npm run *)`, `Edit(src/**)`,
 * `Read(~/.ssh/**)`, `Read(.env)`, `mcp__server__tool`. Matched against Islet's tool calls, whose
 * names differ where Claude's do (Claude's Edit rules cover Islet's Patch and Write).
 */
import { homedir } from "node:os";
import path from "node:path";
import picomatch from "picomatch";
import { parse as parseShell } from "shell-quote";
import { isletToolName } from "./claude-names.ts";

export interface ClaudeRule {
  /** As written. */
  text: string;
  /** Claude's tool name (or pattern with `*`, as in `mcp__server__*`). */
  tool: string;
  /** What is inside the parentheses; absent: every call of the tool. */
  specifier?: string;
}

/**
 * Claude's file rules → the Islet tools each covers: wider than the tool's own name, as Claude's
 * Read rules cover every tool that reads and its Edit rules every tool that edits.
 */
const FILE_TOOLS: Record<string, { islet: readonly string[] }> = {
  Read: { islet: ["Read", "Grep", "Glob", "Ls"] },
  Edit: { islet: ["Patch", "Write"] },
  MultiEdit: { islet: ["Patch"] },
  Write: { islet: ["Write"] },
};

/** One rule, or why it cannot be read. */
export function parseClaudeRule(text: string): ClaudeRule | { error: string } {
  const trimmed = text.trim();
  const m = /^([A-Za-z0-9_*.-]+)(?:\((.*)\))?$/s.exec(trimmed);
  if (!m) return { error: `"${text}" is not a rule: expected Tool or Tool(specifier)` };
  const specifier = m[2]?.trim();
  return {
    text: trimmed,
    tool: m[1]!,
    ...(specifier !== undefined && specifier !== "" && specifier !== "*" ? { specifier } : {}),
  };
}

/** The Islet tool names a rule's tool stands for. */
export function isletToolsOf(rule: ClaudeRule): readonly string[] {
  return FILE_TOOLS[rule.tool]?.islet ?? [isletToolName(rule.tool)];
}

function toolMatches(rule: ClaudeRule, toolName: string): boolean {
  if (rule.tool.includes("*")) return picomatch.isMatch(toolName, rule.tool);
  return isletToolsOf(rule).includes(toolName);
}

/**
 * The simple commands of a shell line: split at `&&`, `||`, `;`, `|`, `&`, newlines and inside
 * `$(…)` and backticks, each without its leading `VAR=value` assignments. Variables stay as
 * written (`$HOME`), so a rule is matched against what was typed.
 */
export function simpleCommands(line: string): string[] {
  const tokens = parseShell(
    line.replaceAll("`", " ; ").replaceAll("\n", " ; "),
    (name) => `$${name}`,
  );
  const commands: string[][] = [[]];
  for (const token of tokens) {
    if (typeof token === "string") {
      commands.at(-1)!.push(token);
    } else if ("op" in token && token.op !== "glob") {
      commands.push([]);
    } else if ("pattern" in token) {
      commands.at(-1)!.push(token.pattern);
    }
  }
  return commands
    .map((words) => {
      let start = 0;
      while (start < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[start]!)) start++;
      // `$(…)` leaves a lone "$" before its "(": not a word of either command.
      return words.slice(start).filter((w, i, all) => !(w === "$" && i === all.length - 1));
    })
    .filter((words) => words.length > 0)
    .map((words) => words.join(" "));
}

/** `git commit:*` (a prefix at a word boundary), `npm run *` (a glob), or an exact command. */
function commandMatches(specifier: string, command: string): boolean {
  if (specifier.endsWith(":*")) {
    const prefix = specifier.slice(0, -2);
    return command === prefix || command.startsWith(`${prefix} `);
  }
  if (!specifier.includes("*")) return command === specifier;
  const pattern = specifier
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${pattern}$`, "s").test(command);
}

/** A path pattern as Claude writes it: `//abs`, `~/home`, `/project-root`, or gitignore-like. */
function pathMatches(specifier: string, file: string, workdir: string): boolean {
  const absolute = path.resolve(workdir, file);
  let base = workdir;
  let pattern = specifier;
  if (pattern.startsWith("//")) {
    base = "/";
    pattern = pattern.slice(2);
  } else if (pattern.startsWith("~/")) {
    base = homedir();
    pattern = pattern.slice(2);
  } else if (pattern.startsWith("/")) {
    pattern = pattern.slice(1);
  } else if (!pattern.includes("/")) {
    // A bare name (`.env`, `*.key`) matches at any depth, as in .gitignore.
    pattern = `**/${pattern}`;
  }
  const relative = path.relative(base, absolute);
  if (relative.startsWith("..") || path.isAbsolute(relative)) return false;
  return picomatch.isMatch(relative, pattern, { dot: true });
}

function pathOf(args: Record<string, unknown>): string | undefined {
  for (const key of ["path", "file_path", "notebook_path"]) {
    const value = args[key];
    if (typeof value === "string" && value !== "") return value;
  }
  return undefined;
}

/**
 * Whether a call is covered. `every`: a shell line needs each of its commands covered (what an
 * allow rule needs, so `git add . && rm -rf ~` is not allowed by `Bash(git add:*)`); otherwise one
 * is enough (what a hook's `if` needs to fire).
 */
export function ruleMatches(
  rule: ClaudeRule,
  call: { toolName: string; args: Record<string, unknown>; workdir: string },
  mode: "any" | "every",
): boolean {
  if (!toolMatches(rule, call.toolName)) return false;
  const specifier = rule.specifier;
  if (specifier === undefined) return true;
  if (call.toolName === "Bash") {
    const command = call.args["command"];
    if (typeof command !== "string") return false;
    const commands = simpleCommands(command);
    if (commands.length === 0) return false;
    const covered = (c: string) => commandMatches(specifier, c);
    return mode === "every" ? commands.every(covered) : commands.some(covered);
  }
  if (FILE_TOOLS[rule.tool]) {
    const file = pathOf(call.args);
    return file !== undefined && pathMatches(specifier, file, call.workdir);
  }
  if (rule.tool === "WebFetch" && specifier.startsWith("domain:")) {
    const url = call.args["url"];
    if (typeof url !== "string") return false;
    try {
      const host = new URL(url).hostname;
      const domain = specifier.slice("domain:".length);
      return host === domain || host.endsWith(`.${domain}`);
    } catch {
      return false;
    }
  }
  // A specifier Islet cannot read for this tool covers nothing: never wider than written.
  return false;
}
