/** The tool contract shared by built-in, plugin, MCP and extension tools. */
import type { JsonSchema, ToolSpec } from "../providers/types.ts";
import type { Context, ToolPaths } from "../../plugins/sdk/index.ts";
import type { ApprovalRule } from "../core/approval-rules.ts";
import type { EventSink } from "../core/events.ts";
import type { QuestionPort } from "../host/questions.ts";
import type { Listing } from "./listing.ts";

export type ToolSource = "builtin" | "plugin" | "mcp" | "extension";

export type { ApprovalRule };

export type Validation =
  { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/** A file's identity on disk when the model last saw it: any change means it must re-read. */
export interface FileStamp {
  mtimeMs: number;
  size: number;
}

/** Per-session state tools read and write (the conversation owns it, tools borrow it). */
export interface ToolSessionState {
  /** Absolute paths whose current content the model has seen (read-before-write). */
  seenFiles: Map<string, FileStamp>;
  todos: TodoItem[];
  /** Set by the Done tool: the agent declared the task finished. */
  done: { summary: string } | null;
}

export interface ToolContext {
  workdir: string;
  signal: AbortSignal;
  state: ToolSessionState;
  /** Per-call wall-clock limit in ms (tools with their own timeout argument may lower it). */
  timeoutMs: number;
  /** The hook-style context of the current turn (plugin tools receive it). */
  sdk?: Context;
  /** Output as it arrives, for the windows watching (tools that stream it: Bash). */
  onOutput?(text: string): void;
  /** The conversation's id ("" when unsaved): a Task's SubagentStop hooks are told it. */
  sessionId?: string;
  /** The model's id for this call (events a tool emits name it: a Task's sub-agent progress). */
  callId?: string;
  /** The conversation's event sink, for tools that report more than text (Task). */
  emit?: EventSink;
  /** The conversation's approval (its window is asked): for what a tool runs on its behalf (Task, Skill). */
  approve?: ApproveCall;
  /** Who the conversation's questions go to (its window, the terminal): activate_plugin asks there. */
  questions?: QuestionPort;
  /**
   * For the rest of the user turn (a skill loaded by Skill): its allowed-tools rules run without
   * a question, its disallowed-tools are withheld.
   */
  limitTurn?(limits: {
    preApproved?: readonly string[];
    disallowedTools?: readonly string[];
  }): void;
}

/** How a conversation decides a tool call (the approval policy, asked of its window). */
export type ApproveCall = (
  tool: Tool,
  args: Record<string, unknown>,
  signal: AbortSignal,
  rewrittenBy: readonly string[],
) => Promise<{ allowed: boolean; reason?: string }>;

/**
 * What an MCP tool's "always" is bound to besides its name: which server answers (its command and
 * arguments or URL, and who declared it) and what the tool said it does (description and input
 * schema). A different server under the name, or a rewritten definition, asks again.
 */
export interface ToolBinding {
  /** The server as a person reads it: `MCP server "x" (plugin foo)`. */
  readonly server: string;
  /** A hash of the server's definition and its declarer. */
  readonly identity: string;
  /** A hash of the tool's description and input schema as the server sent them. */
  readonly definition: string;
  /** The description as the model reads it, to show what changed. */
  readonly description: string;
  /** The description as the server sent it, hidden characters and all: what people are shown. */
  readonly sentDescription?: string;
}

export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly usage?: string;
  readonly examples?: string;
  readonly parameters: JsonSchema;
  readonly source: ToolSource;
  /** Safe to run concurrently with other parallel tools of the same step. */
  readonly parallel: boolean;
  /** Replaces an already registered tool of the same name instead of being a conflict. */
  readonly override?: boolean;
  /**
   * The name its approval rule is looked up and remembered under, when not its own: a plugin's
   * override of a built-in must not ride on the built-in's rule.
   */
  readonly approvalName?: string;
  /** Hidden unless an enabled list names it exactly (wildcards do not enable it). */
  readonly optIn?: boolean;
  /**
   * Its rule before anyone chose one (the user's always/never, approvals.json); missing: "ask".
   * Plugin and MCP tools never declare one.
   */
  readonly approval?: ApprovalRule;
  /** An MCP tool's server and definition, which its remembered "always" holds for. */
  readonly binding?: ToolBinding;
  /**
   * The extensions its description lists (Task: the agents), one line each: a turn over its
   * prompt budget describes it with only the ones it offers.
   */
  readonly listing?: Listing;
  /**
   * Part of the engine's own prompt though an extension registers it (Skill): a turn's prompt
   * budget never leaves it out.
   */
  readonly alwaysOffered?: boolean;
  /**
   * There only because extensions are (activate_plugin comes with on-demand plugins): offered,
   * and its cost paid from the extensions' prompt budget.
   */
  readonly forExtensions?: boolean;
  /** Checks arguments against the schema; unknown fields, wrong types, missing required fail. */
  validate(args: unknown): Validation;
  /** Returns the output for the model; throws ToolError (or any Error) for a failed call. */
  execute(args: Record<string, unknown>, ctx: ToolContext): Promise<string>;
  /** Paths the call touches: guard before, record/clear after (read-before-write). */
  paths?(args: Record<string, unknown>, ctx: ToolContext): ToolPaths | Promise<ToolPaths>;
  /** Wall-clock limit this call asks for (e.g. Bash's timeout_ms); replaces ctx.timeoutMs. */
  timeoutMs?(args: Record<string, unknown>): number | undefined;
}

/** A failure the model should see as the tool's error output. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ToolError";
  }
}

export function toolSpec(tool: Tool): ToolSpec {
  let description = tool.description;
  if (tool.usage) description += `\n\nUsage: ${tool.usage}`;
  if (tool.examples) description += `\n\nExamples: ${tool.examples}`;
  return { name: tool.name, description, parameters: tool.parameters };
}

export function newToolSessionState(): ToolSessionState {
  return { seenFiles: new Map(), todos: [], done: null };
}
