/** Slash commands: built-in ones here; custom (Markdown) and plugin ones register later. */
import type { AgentSession } from "../turn/loop.ts";
import type { Context } from "../../plugins/sdk/index.ts";
import type { QuestionPort } from "../host/questions.ts";

export type CommandSource = "builtin" | "custom" | "plugin";

export interface CommandOutput {
  /** Text for the user (or for the model when forward is set). */
  output: string;
  /** Send output to the model as a user message and run a turn. */
  forward?: boolean;
  /** Suppress the output in the transcript. */
  silent?: boolean;
  /**
   * With forward: Claude permission rules (`Bash(git add:*)`, `Read`) whose calls run without a
   * question in that turn (a command's `allowed-tools`); every other tool stays offered and asks
   * as usual.
   */
  preApproved?: string[];
  /** With forward: tools that turn may not use (a skill's `disallowed-tools`). */
  disallowedTools?: string[];
  /** With forward: the model for that turn only (a command's `model`). */
  model?: string;
}

export interface CommandEnv {
  session: AgentSession;
  /** Names of the agents the user may switch to. */
  agentNames(): string[];
  toolNames(): string[];
  /** The hook-style context of the session right now (plugin commands receive it). */
  context(): Context;
  workdir: string;
  /** Runs a command line in the workspace through the approval policy (as Bash); throws if refused. */
  shell(command: string): Promise<string>;
  /** Who the conversation's questions go to (its window, the terminal); missing: the engine's. */
  questions?: QuestionPort;
}

export interface SlashCommand {
  name: string;
  description: string;
  /** Ghost text for the composer, e.g. "[agent name]". */
  hints?: string;
  source: CommandSource;
  /** The plugin that provides it (source "plugin"). */
  plugin?: string;
  /**
   * Set on the bare name of a namespaced command (`/deploy` for `/tools:deploy`) to the full name:
   * it serves only while no other command has the name, and is not listed (the full name is).
   */
  aliasOf?: string;
  /** What kind of thing it runs, for listings: a skill is also a command. */
  kind?: "command" | "skill";
  run(args: string, env: CommandEnv): Promise<CommandOutput>;
}

/** Splits "/name rest of line" into its parts; null when the text is not a command. */
export function parseCommandLine(text: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9][\w:.-]*)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1], args: (m[2] ?? "").trim() } : null;
}
