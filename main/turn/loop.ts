/**
 * The turn loop (SPEC §5): build request → BeforeChat → TransformMessages → provider call
 * (streamed, with recovery) → AfterResponse → tool calls → loop until no tool calls, Done,
 * max steps or stop.
 */
import { environmentPrompt } from "../agents/definition.ts";
import { ProviderError } from "../providers/types.ts";
import { filterTools } from "../tools/registry.ts";
import { newToolSessionState, toolSpec, type TodoItem, type Tool } from "../tools/types.ts";
import type { Context } from "../../plugins/sdk/index.ts";
import type { Stats } from "../core/types.ts";
import { remedyOf } from "../core/remedy.ts";
import { compactHistory, splitPoint, type CompactionResult } from "./compaction.ts";
import { buildContext, contextTokens } from "./context.ts";
import { runReadOnly } from "./hooks/pipeline.ts";
import { appendMessage, ejectSeen, injectMessages, type HistoryHost } from "./history-edits.ts";
import { makeMessage, type Message } from "../core/message.ts";
import { reportOutcome } from "./report.ts";
import { newStats, snapshotStats } from "./stats.ts";
import type { AgentState, EngineDeps } from "./state.ts";
import type { AgentEvent } from "./events.ts";
import { runToolPhase } from "./tool-phase.ts";
import { runChatStep, type StepHost } from "./chat-step.ts";
import { claudeRules } from "./turn-limits.ts";
import type { ListedItem } from "../tools/listing.ts";

export type RunStatus = "done" | "max_steps" | "stopped" | "error" | "skipped";

export interface RunOutcome {
  status: RunStatus;
  /** Text of the last model step. */
  text: string;
  error?: ProviderError;
}

/** What a slash command may set for the turn it starts. */
export interface TurnOptions {
  /** Claude permission rules whose calls run without a question in this turn (`allowed-tools`). */
  preApproved?: string[];
  /** Tool name patterns the turn may not use (a skill's disallowed-tools). */
  disallowedTools?: string[];
  /** A model for this turn only ("inherit" or unset: the agent's). */
  model?: string;
}

export interface SessionInit {
  agent: string;
  sessionId: string;
  title?: string;
  messages?: Message[];
  todos?: TodoItem[];
  stats?: Stats;
}

export class AgentSession {
  readonly state: AgentState;
  private readonly deps: EngineDeps;
  private controller: AbortController | null = null;
  /** What a model step (chat-step.ts) may do to this session. */
  private readonly stepHost: StepHost;
  /** This session's history, as history-edits.ts changes it. */
  private readonly history: HistoryHost;

  constructor(deps: EngineDeps, init: SessionInit) {
    this.deps = deps;
    this.state = initialState(deps, init);
    this.history = { state: this.state, deps };
    this.stepHost = {
      state: this.state,
      deps,
      append: (m) => this.append(m),
      inject: (i) => injectMessages(this.history, i),
      eject: (seen) => ejectSeen(this.history, seen),
      ensureModel: () => this.ensureModel(),
      switchAgent: (n) => this.switchAgent(n, "failover"),
      agentTools: () => this.agentTools(),
      systemPrompt: (extra, keep) => this.systemPrompt(extra, keep),
    };
  }

  /** The hook-style context as it stands (for commands and tools run outside a turn). */
  context(): Context {
    return buildContext(this.state, this.deps);
  }

  get busy(): boolean {
    return this.controller !== null;
  }

  /** Stops the running turn: the stream is cut, running tools are aborted. */
  stop(): void {
    this.controller?.abort();
  }

  /** A user turn: the prompt enters history and the loop runs until it settles. */
  async send(prompt: string, opts: TurnOptions = {}): Promise<RunOutcome> {
    if (this.controller) throw new Error("a turn is already running; stop it first");
    const controller = new AbortController();
    this.controller = controller;
    try {
      // First, so every window and the saved history see the prompt before the answer.
      this.deps.emit({ type: "user_message", text: prompt });
      this.append(makeMessage("user", prompt));
      if (!this.state.title) this.state.title = prompt.replace(/\s+/g, " ").trim().slice(0, 60);
      this.state.stats.interactions++;
      this.state.tools.done = null;
      // Per user turn, as in Aura: tool history, patch counts and tools disabled by hooks.
      this.state.toolHistory = [];
      this.state.patchCounts = {};
      this.state.turnDisabledTools = [...(opts.disallowedTools ?? [])];
      this.state.turnPreApproved = claudeRules(opts.preApproved);
      this.state.turnStop = undefined;
      this.state.toolBatch = undefined;
      this.followAgentFile();
      const agentModel = this.state.resolved;
      if (opts.model && opts.model !== "inherit")
        this.state.resolved = await this.deps.resolveModel({
          ...this.state.agent,
          model: opts.model,
        });
      const outcome = await this.run(controller.signal).finally(() => {
        if (opts.model && opts.model !== "inherit") this.state.resolved = agentModel;
      });
      if (outcome.error) {
        const remedy = outcome.error.remedy;
        this.deps.emit({
          type: "error",
          errorType: outcome.error.errorType,
          message: outcome.error.message,
          ...(remedy ? { remedy } : {}),
        });
      }
      return outcome;
    } finally {
      this.controller = null;
      this.state.turnPreApproved = [];
      await this.settle();
    }
  }

  /** An event from outside the loop (a slash command's prompt and output), saved and shown like its own. */
  announce(event: AgentEvent): void {
    this.deps.emit(event);
  }

  /** `/compact`: summarise older history now. */
  async compact(): Promise<CompactionResult> {
    await this.ensureModel();
    return compactHistory(this.state, this.deps, "manual");
  }

  /**
   * The agent's file edited since the last turn (the homes are watched): this turn uses its
   * current definition, and a changed model in it is resolved again. A removed agent keeps the
   * definition the conversation had.
   */
  private followAgentFile(): void {
    const current = this.deps.agents.get(this.state.agent.name);
    if (!current || current === this.state.agent) return;
    const before = this.state.agent;
    this.state.agent = current;
    if (current.provider !== before.provider || current.model !== before.model)
      this.state.resolved = null;
  }

  async switchAgent(
    name: string,
    reason: "user" | "failover" | "task" | "cycle" | "resume",
  ): Promise<void> {
    const next = this.deps.agents.get(name);
    if (!next)
      throw new Error(`unknown agent "${name}"; known: ${[...this.deps.agents.keys()].join(", ")}`);
    const previous = this.state.agent;
    this.state.agent = next;
    this.state.resolved = null;
    this.deps.session?.setAgent(next.name);
    this.deps.emit({ type: "agent_switch", from: previous.name, to: next.name, reason });
    const out = await runReadOnly(this.deps.hooks.handlers("onAgentSwitch"), {
      ...buildContext(this.state, this.deps),
      previousAgent: previous.name,
      newAgent: next.name,
      reason,
    });
    reportOutcome(this.deps, out, { state: this.state });
  }

  /**
   * Ends a unit of work: stats saved, the session file's fsync started, `done` emitted. The turn
   * does not wait for the disk: its records are already written (a process crash keeps them), the
   * fsync only guards against power loss, and closing the session waits for it (store.close).
   */
  async settle(): Promise<void> {
    const stats = snapshotStats(this.state.stats);
    this.deps.session?.setStats(stats);
    void this.deps.session?.flush().catch((err: Error) =>
      this.deps.emit({
        type: "notice",
        source: "engine",
        text: `session not synced: ${err.message}`,
      }),
    );
    this.deps.emit({ type: "done", stats, sessionId: this.state.sessionId });
  }

  private append(message: Message): void {
    appendMessage(this.history, message);
  }

  private async ensureModel(): Promise<void> {
    if (!this.state.resolved) this.state.resolved = await this.deps.resolveModel(this.state.agent);
  }

  private agentTools(): Tool[] {
    return filterTools(this.deps.tools.list(), {
      enabled: this.state.agent.tools ?? [],
      disabled: this.state.agent.disallowedTools,
    });
  }

  private systemPrompt(extra: readonly string[], keep?: (item: ListedItem) => boolean): string {
    const style = this.state.outputStyle;
    const base = style && !style.keepCodingInstructions ? "" : this.state.agent.systemPrompt;
    const parts = [base, environmentPrompt(this.deps.workdir)];
    parts.push(...this.deps.promptFragments(keep), ...(style ? [style.body] : []), ...extra);
    return parts.filter((p) => p.trim() !== "").join("\n\n");
  }

  private async run(signal: AbortSignal): Promise<RunOutcome> {
    const maxSteps = this.deps.maxSteps ?? this.state.agent.maxSteps;
    let text = "";
    for (let step = 1; ; step++) {
      if (signal.aborted) return { status: "stopped", text };
      // Past the limit the model gets one more call without tools to answer in words (as Aura).
      const final = step > maxSteps;
      try {
        await this.ensureModel();
      } catch (err) {
        return {
          status: "error",
          text,
          // The remedy rides along: no model at all is fixed by a Download button in the app.
          error:
            err instanceof ProviderError
              ? err
              : new ProviderError((err as Error).message, "", 0, undefined, {
                  remedy: remedyOf(err),
                }),
        };
      }
      this.state.iteration = step;
      this.state.stats.iterations++;
      await this.autoCompact(signal);

      const result = await runChatStep(this.stepHost, signal, final);
      if (result.kind === "error") return { status: "error", text, error: result.error };
      if (result.kind === "skipped") return { status: "skipped", text };
      const { response, offered } = result;
      text = response.content;
      if (response.aborted) {
        this.deps.emit({ type: "notice", source: "engine", text: "Stopped." });
        return { status: "stopped", text };
      }
      if (final) {
        this.deps.emit({
          type: "notice",
          source: "engine",
          text: `Stopped after ${maxSteps} steps (max steps).`,
        });
        return { status: "max_steps", text };
      }
      // As in Aura: a reminder injected after a final answer (Done not called, todos open, an
      // empty reply) gets the model another step; max steps bounds it.
      if (response.toolCalls.length === 0 && !result.followUp) return { status: "done", text };
      if (response.toolCalls.length === 0) continue;

      const todosBefore = JSON.stringify(this.state.tools.todos);
      this.state.stats.parseRetries += response.invalidCalls.size;
      const phase = await runToolPhase(
        response.toolCalls,
        response.invalidCalls,
        offered,
        this.state,
        this.deps,
        signal,
      );
      for (const o of phase.outcomes) {
        this.deps.emit({
          type: "tool_result",
          id: o.call.id,
          name: o.call.name,
          output: o.result.output,
          error: o.result.error,
          durationMs: o.result.durationMs,
          ...(o.result.denied ? { denied: o.result.denied } : {}),
        });
        this.append(
          makeMessage("tool", o.result.output, {
            toolCallId: o.call.id,
            toolName: o.call.name,
            isError: o.result.error || undefined,
          }),
        );
      }
      this.state.toolBatch = phase.outcomes.map((o) => ({
        id: o.call.id,
        name: o.call.name,
        args: o.args,
        result: o.result.error ? "" : o.result.output,
        error: o.result.error ? o.result.output : "",
      }));
      injectMessages(this.history, phase.injections);
      if (JSON.stringify(this.state.tools.todos) !== todosBefore)
        this.deps.session?.setTodos(this.state.tools.todos);
      if (this.state.tools.done) return { status: "done", text };
      if (this.state.turnStop !== undefined) {
        this.deps.emit({ type: "notice", source: "hooks", text: this.state.turnStop });
        return { status: "done", text };
      }
    }
  }

  private async autoCompact(signal: AbortSignal): Promise<void> {
    const { compaction } = this.deps;
    if (!compaction.enabled) return;
    // Nothing old enough to summarise: compacting would only burn a model call.
    if (splitPoint(this.state.messages, compaction.keepLast) === 0) return;
    // As the turn offers them: past the prompt budget, not every extension is in the request.
    const offer = this.state.offer?.offer;
    const specs = offer
      ? offer.tools(this.agentTools()).map((t) => offer.spec(t))
      : this.agentTools().map(toolSpec);
    const percent = contextTokens(this.state, specs).percent;
    if (percent >= compaction.threshold) {
      await compactHistory(this.state, this.deps, "auto", signal);
    }
  }
}

/** A session's state at its start (a new conversation, or one resumed from `init`). */
function initialState(deps: EngineDeps, init: SessionInit): AgentState {
  const agent = deps.agents.get(init.agent);
  if (!agent)
    throw new Error(`unknown agent "${init.agent}"; known: ${[...deps.agents.keys()].join(", ")}`);
  const tools = newToolSessionState();
  tools.todos = init.todos ?? [];
  return {
    agent,
    resolved: null,
    messages: init.messages ?? [],
    tools,
    stats: init.stats ?? newStats(),
    iteration: 0,
    lastApiTokens: 0,
    toolHistory: [],
    patchCounts: {},
    sessionId: init.sessionId,
    title: init.title ?? "",
    lastResponse: { empty: false, contentEmpty: false, hasToolCalls: false },
    availableTools: [],
    lastSystemPrompt: "",
    turnDisabledTools: [],
    turnPreApproved: [],
  };
}
