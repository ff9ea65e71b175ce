/** Everything the turn loop keeps between calls, shared by its parts. */
import type { AgentConfig } from "../agents/definition.ts";
import type { Provider } from "../providers/types.ts";
import type { Tool, ToolSessionState } from "../tools/types.ts";
import type { ModelInfo, Stats, ThinkMode, ToolCall } from "../core/types.ts";
import type { Denial } from "../core/denial.ts";
import type { BatchCall, HookRegistry } from "./hooks/types.ts";
import type { EventSink } from "./events.ts";
import type { Message } from "../core/message.ts";
import type { SessionSink } from "./session-sink.ts";
import type { QuestionPort } from "../host/questions.ts";
import type { ClaudeRule } from "../tools/claude-rule.ts";
import type { ListedItem, Listing } from "../tools/listing.ts";
import type { ChosenOffer } from "./offer/offer.ts";

export interface ResolvedModel {
  provider: Provider;
  model: string;
  info: ModelInfo;
  /** The provider's `extensions_budget` (percent of the window), when providers.yaml sets one. */
  extensionsBudget?: number;
  /** The provider's `hook_context_budget` (percent of the window), when providers.yaml sets one. */
  hookContextBudget?: number;
}

export interface ToolSet {
  /** Every tool the session could offer (before agent and plugin filtering). */
  list(): readonly Tool[];
}

export interface ApprovalDecision {
  allowed: boolean;
  reason?: string;
  /** Who said no (set when not allowed). */
  denied?: Denial;
  /** Allowed with other arguments (a PermissionRequest hook's `updatedInput`): run with these. */
  arguments?: Record<string, unknown>;
  /** Who changed them. */
  by?: string;
}

export interface CompactionSettings {
  enabled: boolean;
  /** Auto-compact when the context estimate passes this percent of the window. */
  threshold: number;
  /** Recent messages kept verbatim. */
  keepLast: number;
}

export interface RetrySettings {
  /** Attempts for transient errors (rate_limit, server, network), including the first. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface EngineDeps {
  workdir: string;
  agents: ReadonlyMap<string, AgentConfig>;
  resolveModel(agent: AgentConfig): Promise<ResolvedModel>;
  tools: ToolSet;
  hooks: HookRegistry;
  /**
   * `signal` aborts when the turn stops: a pending question is withdrawn. `rewrittenBy`: plugins
   * that rewrote the model's arguments (such a call is confirmed by a person). `preApproved`: a
   * running command's or skill's allowed-tools covers the call (it runs without a question
   * unless the tool is set to never run).
   */
  approve(
    tool: Tool,
    args: Record<string, unknown>,
    signal: AbortSignal,
    rewrittenBy: readonly string[],
    preApproved?: boolean,
  ): Promise<ApprovalDecision>;
  /** Who the conversation's questions go to (tools that ask the user: activate_plugin). */
  questions?: QuestionPort;
  emit: EventSink;
  session: SessionSink | null;
  compaction: CompactionSettings;
  retry: RetrySettings;
  /**
   * Extra system prompt text (plugin and pack prompt fragments), read at every call; `keep`: the
   * listed extensions (skills) a turn over its prompt budget offers.
   */
  promptFragments(keep?: (item: ListedItem) => boolean): string[];
  /** The prompt fragments' listings (the skills), which a turn's prompt budget chooses from. */
  listings?(): readonly Listing[];
  vars: Record<string, string>;
  /** Overrides the agent's max_steps (--max-steps). */
  maxSteps?: number;
  thinkMode: ThinkMode;
  /** Per tool call wall-clock limit. */
  toolTimeoutMs: number;
  /** Names of connected MCP servers (for hook contexts). */
  mcpServers(): string[];
}

export interface AgentState {
  agent: AgentConfig;
  resolved: ResolvedModel | null;
  messages: Message[];
  tools: ToolSessionState;
  stats: Stats;
  iteration: number;
  lastApiTokens: number;
  toolHistory: ToolCall[];
  patchCounts: Record<string, number>;
  sessionId: string;
  title: string;
  lastResponse: { empty: boolean; contentEmpty: boolean; hasToolCalls: boolean };
  /** Tool names offered on the latest call (after filtering). */
  availableTools: string[];
  /** System prompt of the latest call. */
  lastSystemPrompt: string;
  /** Tool patterns hooks disabled for the rest of this user turn. */
  turnDisabledTools: string[];
  /** Rules whose calls run without a question for the rest of this user turn (allowed-tools). */
  turnPreApproved: ClaudeRule[];
  /** What this user turn offers of the extensions (main/turn/offer/), chosen at its first call. */
  offer?: ChosenOffer;
  /** A tool hook's `continue: false`: the user turn ends once the step's results are in. */
  turnStop?: string;
  /** The last step's tool calls, until the next model call's beforeChat (Claude's PostToolBatch). */
  toolBatch?: BatchCall[];
  /**
   * The output style chosen with /output-style: its body ends the system prompt; without
   * keepCodingInstructions it takes the place of the agent's prompt (Claude Code's semantics).
   */
  outputStyle?: { name: string; body: string; keepCodingInstructions: boolean } | null;
}
