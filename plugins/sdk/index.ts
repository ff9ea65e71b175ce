/**
 * @islet/sdk: the types every Islet plugin sees, field for field from Aura's Go SDK, camelCased.
 * Types only plus a few constants; the host provides the runtime module to plugin isolates, and
 * the same declarations feed the editor's IntelliSense.
 */
import type {
  ErrorType,
  ModelInfo,
  Role,
  Stats,
  ThinkMode,
  TokenState,
  ToolCall,
} from "../../main/core/types.ts";

/** SDK version. Plugins declare `sdk:` in plugin.yaml; the host accepts `~sdk` (same minor). */
export const version = "0.1.0";

// The engine's core types, as plugins see them (declarations.ts writes them into the module).
export type {
  ErrorType,
  ModelInfo,
  Role,
  Stats,
  ThinkMode,
  TokenState,
  ToolCall,
  ToolCount,
} from "../../main/core/types.ts";

export const RoleUser: Role = "user";
export const RoleAssistant: Role = "assistant";

export interface SandboxFeatureState {
  enabled: boolean;
  requested: boolean;
}

export interface FeatureState {
  sandbox: SandboxFeatureState;
  readBeforeWrite: boolean;
  showThinking: boolean;
  compactionEnabled: boolean;
}

export interface Turn {
  role: "user" | "assistant";
  content: string;
}

export interface Context {
  iteration: number;
  tokens: TokenState;
  agent: string;
  mode: string;
  modelInfo: ModelInfo;
  stats: Stats;
  workdir: string;
  messageCount: number;
  auto: boolean;
  doneActive: boolean;
  hasToolCalls: boolean;
  maxSteps: number;
  response: { empty: boolean; contentEmpty: boolean };
  todo: { pending: number; inProgress: number; total: number };
  patchCounts: Record<string, number>;
  toolHistory: ToolCall[];
  session: { id: string; title: string };
  provider: string;
  thinkMode: ThinkMode;
  features: FeatureState;
  availableTools: string[];
  loadedTools: string[];
  /** Text-only user/assistant turns (no system, tool, synthetic or ephemeral messages). */
  turns: Turn[];
  systemPrompt: string;
  mcpServers: string[];
  /** Template variables from --set flags. */
  vars: Record<string, string>;
  /** Merged config: plugin.yaml, then config.global, then config.local.<name>. */
  pluginConfig: Record<string, unknown>;
}

export type BeforeChatContext = Context;

export interface AfterResponseContext extends Context {
  content: string;
  thinking: string;
  /** Pending, unexecuted calls: result, error and duration are empty. */
  calls: ToolCall[];
}

export interface BeforeToolContext extends Context {
  toolName: string;
  arguments: Record<string, unknown>;
}

export interface AfterToolContext extends Context {
  tool: { name: string; result: string; error: string; duration: number };
}

export interface OnErrorContext extends Context {
  error: string;
  errorType: ErrorType;
  retryable: boolean;
  statusCode: number;
}

export interface BeforeCompactionContext extends Context {
  forced: boolean;
  tokensUsed: number;
  contextPercent: number;
  messageCount: number;
  keepLast: number;
}

export interface AfterCompactionContext extends Context {
  success: boolean;
  preMessages: number;
  postMessages: number;
  summaryLength: number;
}

export type AgentSwitchReason = "user" | "failover" | "task" | "cycle" | "resume";

export interface OnAgentSwitchContext extends Context {
  previousAgent: string;
  newAgent: string;
  reason: AgentSwitchReason;
}

export interface MessageToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

export interface Message {
  /** Positional identifier (m0001, m0002, ...), stable within one transform call. */
  id: string;
  role: "system" | "user" | "assistant" | "tool";
  content: string;
  thinking: string;
  toolName: string;
  toolCallId: string;
  toolCalls: MessageToolCall[];
  tokens: number;
  type: "normal" | "synthetic";
  /** ISO timestamp. */
  createdAt: string;
}

export interface TransformContext extends Context {
  messages: Message[];
}

export interface RequestModification {
  /** Appended to the system prompt for this turn only; several compose with blank lines. */
  appendSystem?: string;
  /** Skip the provider call; the turn ends with an empty response. */
  skip?: boolean;
}

export interface ResponseModification {
  /** Keep the (already streamed) response out of history. */
  skip?: boolean;
  /** Replace the response content before it enters history. */
  content?: string;
}

export interface ErrorModification {
  /** Retry the provider call without counting an iteration (at most 3 times). */
  retry?: boolean;
  /** Suppress the error: the turn ends as if the model answered with nothing. */
  skip?: boolean;
}

export interface CompactionModification {
  skip?: boolean;
}

export interface Result {
  message?: string;
  /** Defaults to assistant. */
  role?: Role;
  prefix?: string;
  /** Remove the injected message after one turn. */
  eject?: boolean;
  /** Tool name patterns to disable for this turn, e.g. ["*"]. */
  disableTools?: string[];
  /** Display-only text; when set, message is ignored. */
  notice?: string;
  /** afterToolExecution: replaces the tool output sent to the model. */
  output?: string;
  response?: ResponseModification;
  error?: ErrorModification;
  request?: RequestModification;
  compaction?: CompactionModification;
}

export interface BeforeToolResult extends Result {
  /**
   * Replaces the tool arguments (re-validated against the tool's schema). For a tool that asks
   * before it runs (Bash, Write, Patch, plugin and MCP tools) a person confirms each rewritten
   * call, unless plugin.yaml asks for `permissions: { rewrite: [{ tool: "Bash", reason: "…" }] }`
   * and the user granted it: the call then follows the tool's usual approval.
   */
  arguments?: Record<string, unknown>;
  block?: boolean;
}

export interface ToolProperty {
  type: string;
  description?: string;
  enum?: unknown[];
  items?: ToolProperty;
}

export interface ToolParameters {
  type: "object";
  properties?: Record<string, ToolProperty>;
  required?: string[];
}

export interface ToolSchema {
  name: string;
  description: string;
  usage?: string;
  examples?: string;
  parameters: ToolParameters;
}

export interface ToolPaths {
  read?: string[];
  write?: string[];
  record?: string[];
  guard?: string[];
  clear?: string[];
}

export interface ToolConfig {
  homeDir: string;
  configDir: string;
}

export interface CommandSchema {
  name: string;
  description: string;
  /** Ghost text after the name, e.g. "[environment]", or labels, e.g. ["name"] (shown "[name]"). */
  hints?: string | string[];
  forward?: boolean;
  silent?: boolean;
}

export interface CommandResult {
  output: string;
}

type MaybePromise<T> = T | Promise<T>;

export type BeforeChatHook = (ctx: BeforeChatContext) => MaybePromise<Result | void>;
export type AfterResponseHook = (ctx: AfterResponseContext) => MaybePromise<Result | void>;
export type BeforeToolExecutionHook = (
  ctx: BeforeToolContext,
) => MaybePromise<BeforeToolResult | void>;
export type AfterToolExecutionHook = (ctx: AfterToolContext) => MaybePromise<Result | void>;
export type OnErrorHook = (ctx: OnErrorContext) => MaybePromise<Result | void>;
export type BeforeCompactionHook = (ctx: BeforeCompactionContext) => MaybePromise<Result | void>;
export type AfterCompactionHook = (ctx: AfterCompactionContext) => MaybePromise<Result | void>;
export type OnAgentSwitchHook = (ctx: OnAgentSwitchContext) => MaybePromise<Result | void>;
export type TransformMessagesHook = (ctx: TransformContext) => MaybePromise<Message[]>;

// ── Tools and commands ─────────────────────────────────────────────────────────────────────

/** Required for a tool: the function-calling schema. */
export type SchemaExport = () => ToolSchema;
/** Required for a tool: runs it; the string goes to the model. Throw to report an error. */
export type ExecuteExport = (ctx: Context, args: Record<string, unknown>) => MaybePromise<string>;
/** Optional: paths the call reads/writes (read-before-write Record/Guard/Clear). */
export type PathsExport = (args: Record<string, unknown>) => ToolPaths;
/** Optional (default true): may run concurrently with other tools of the same step. */
export type ParallelExport = () => boolean;
/** Optional (default true): may run in the sandbox. */
export type SandboxableExport = () => boolean;
/** Optional: called once at load. */
export type InitExport = (cfg: ToolConfig) => void;
/** Optional: false keeps the tool from being registered. */
export type AvailableExport = () => boolean;
/** Required for a command: its schema. */
export type CommandExport = () => CommandSchema;
/** Required for a command: `args` is the raw text after the command name. */
export type ExecuteCommandExport = (args: string, ctx: Context) => MaybePromise<CommandResult>;

// ── Host capabilities (provided inside the sandbox) ───────────────────────────────────────

export interface FileStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  /** ISO timestamp. */
  mtime: string;
}

/**
 * File access (SPEC §6). Reads: the workspace and the plugin's own folder. Writes: the plugin's
 * data folder (`dataDir`). Paths in plugin.yaml `permissions.paths` add more once the user grants
 * them. `.islet/`, `.git/`, Islet's global home and plugin folders are never writable. Relative
 * paths resolve against the workspace.
 */
export interface PluginFs {
  /** The plugin's own writable folder (absolute; kept across runs and reloads). */
  readonly dataDir: string;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: string): Promise<void>;
  appendFile(path: string, content: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<FileStat>;
  exists(path: string): Promise<boolean>;
}

export declare const fs: PluginFs;

/** `import { exec } from "@islet/sdk/exec"` (unsafe mode only). */
export interface ExecResult {
  code: number;
  stdout: string;
  stderr: string;
}
export interface ExecOptions {
  cwd?: string;
  timeoutMs?: number;
  stdin?: string;
}
