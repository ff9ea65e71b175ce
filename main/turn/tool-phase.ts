/**
 * One step's tool calls: BeforeToolExecution (argument rewrite chain, block, re-validation),
 * approval, execution (parallel where every tool in a run allows it), AfterToolExecution
 * (output rewrite), then the results enter history in call order. Messages hooks inject here
 * wait until every result is in, so tool results always follow their calls directly.
 */
import { limitTurn } from "./turn-limits.ts";
import { isTurnSearchTool } from "./offer/search-tool.ts";
import { ruleMatches } from "../tools/claude-rule.ts";
import { agentRuleRefusal } from "./agent-tool-rules.ts";
import {
  executeToolCall,
  runToolCalls,
  unknownToolResult,
  type ToolResult,
} from "../tools/executor.ts";
import type { Tool } from "../tools/types.ts";
import type { ToolCall } from "../core/types.ts";
import type { Denial } from "../core/denial.ts";
import { repairArguments } from "../tools/repair.ts";
import { buildContext } from "./context.ts";
import { runAfterTool, runBeforeTool } from "./hooks/pipeline.ts";
import type { Injection } from "./hooks/types.ts";
import type { ToolCallRequest } from "../core/message.ts";
import { reportOutcome } from "./report.ts";
import { liveOutput } from "./tool-output.ts";
import { countTool } from "./stats.ts";
import type { AgentState, ApprovalDecision, EngineDeps } from "./state.ts";

export interface ToolOutcome {
  call: ToolCallRequest;
  tool: Tool | undefined;
  /** Arguments actually used (after hook rewrites). */
  args: Record<string, unknown>;
  result: ToolResult;
}

type Prepared =
  | { call: ToolCallRequest; tool: Tool; args: Record<string, unknown>; ready: true }
  | {
      call: ToolCallRequest;
      tool: Tool | undefined;
      args: Record<string, unknown>;
      ready: false;
      result: ToolResult;
    };

const HISTORY_RESULT_CHARS = 2000;
const HISTORY_LIMIT = 200;

function refused(output: string, denied?: Denial): ToolResult {
  return { output, error: true, durationMs: 0, ...(denied ? { denied } : {}) };
}

/** What the model reads about a call that was not approved: why, and not to try it again as is. */
function notApproved(tool: string, decision: ApprovalDecision): string {
  const why = decision.reason ? ` (${decision.reason})` : "";
  const head =
    decision.denied === "user"
      ? `Not run: the user declined this ${tool} call${why}.`
      : decision.denied === "no_one"
        ? `Not run: ${tool} needs the user's approval and nobody could be asked${why}.`
        : decision.denied === "stopped"
          ? `Not run: the turn was stopped before ${tool} was approved.`
          : `Not run: ${tool} was not allowed${why}.`;
  return `${head} Do not retry the same call; ask the user how to proceed or do without it.`;
}

/** The model's arguments, with a local model's shape slips repaired when they fail as sent. */
function modelArguments(tool: Tool, args: Record<string, unknown>): Record<string, unknown> {
  if (tool.validate(args).ok) return args;
  const repaired = repairArguments(args, tool.parameters);
  return repaired && tool.validate(repaired).ok ? repaired : args;
}

async function prepare(
  call: ToolCallRequest,
  offered: ReadonlyMap<string, Tool>,
  state: AgentState,
  deps: EngineDeps,
  injections: Injection[],
  invalid: string | undefined,
  signal: AbortSignal,
): Promise<Prepared> {
  const tool = offered.get(call.name);
  if (invalid !== undefined)
    return { call, tool, args: call.arguments, ready: false, result: refused(invalid) };
  if (!tool)
    return {
      call,
      tool,
      args: call.arguments,
      ready: false,
      result: unknownToolResult(call.name, [...offered.keys()]),
    };

  const before = await runBeforeTool(deps.hooks.handlers("beforeToolExecution"), {
    ...buildContext(state, deps),
    toolName: call.name,
    arguments: modelArguments(tool, call.arguments),
    toolCallId: call.id,
  });
  reportOutcome(deps, before, { state, call });
  state.turnDisabledTools.push(...before.disableTools);
  // `continue: false` on PreToolUse: this call does not run and the turn ends after the step.
  if (before.stopTurn !== undefined) state.turnStop ??= before.stopTurn;
  if (before.block || before.stopTurn !== undefined) {
    let reason = `Tool call blocked by ${before.blockedBy.join(", ")}.`;
    // The seed folds the first message into the block reason instead of injecting it.
    if (before.injections.length > 0) reason += ` ${before.injections[0].content}`;
    else if (!before.block) reason = `Tool call stopped by a hook: ${before.stopTurn}`;
    return { call, tool, args: before.arguments, ready: false, result: refused(reason) };
  }
  if (before.rewrittenBy.length > 0) {
    const invalid = invalidArguments(call, tool, before.arguments, "rewritten", before.rewrittenBy);
    if (invalid) return invalid;
  }
  injections.push(...before.injections);

  // The turn's own SearchTools reads the list of what is installed: nothing to approve.
  if (isTurnSearchTool(tool)) return { call, tool, args: before.arguments, ready: true };
  const covered = { toolName: tool.name, args: before.arguments, workdir: deps.workdir };
  const outside = outsideAgent(call, tool, before.arguments, state, deps);
  if (outside) return outside;
  const preApproved = state.turnPreApproved.some((rule) => ruleMatches(rule, covered, "every"));
  const decision = await deps.approve(
    tool,
    before.arguments,
    signal,
    before.rewrittenBy,
    preApproved,
  );
  if (!decision.allowed) {
    return {
      call,
      tool,
      args: before.arguments,
      ready: false,
      result: refused(notApproved(tool.name, decision), decision.denied ?? "rule"),
    };
  }
  if (decision.arguments)
    return allowedChanged(call, tool, decision.arguments, state, deps, decision.by);
  return { call, tool, args: before.arguments, ready: true };
}

/**
 * Allowed with other arguments (a PermissionRequest hook's `updatedInput`): they must still be
 * valid for the tool and within what the agent may do, as the model's own would be.
 */
function allowedChanged(
  call: ToolCallRequest,
  tool: Tool,
  args: Record<string, unknown>,
  state: AgentState,
  deps: EngineDeps,
  by = "a hook",
): Prepared {
  return (
    invalidArguments(call, tool, args, "changed", [by]) ??
    outsideAgent(call, tool, args, state, deps) ?? { call, tool, args, ready: true }
  );
}

/** Arguments a hook rewrote or changed, refused when the tool cannot take them. */
function invalidArguments(
  call: ToolCallRequest,
  tool: Tool,
  args: Record<string, unknown>,
  how: "rewritten" | "changed",
  by: readonly string[],
): Prepared | undefined {
  const check = tool.validate(args);
  if (check.ok) return undefined;
  const why = `Arguments ${how} by ${by.join(", ")} are invalid for ${tool.name}: ${check.error}`;
  return { call, tool, args, ready: false, result: refused(why) };
}

/** A call the agent's own rules do not allow, refused whoever approves it. */
function outsideAgent(
  call: ToolCallRequest,
  tool: Tool,
  args: Record<string, unknown>,
  state: AgentState,
  deps: EngineDeps,
): Prepared | undefined {
  const outside = agentRuleRefusal(state.agent, {
    toolName: tool.name,
    args,
    workdir: deps.workdir,
  });
  return outside === undefined
    ? undefined
    : { call, tool, args, ready: false, result: refused(outside, "rule") };
}

function remember(state: AgentState, outcome: ToolOutcome): void {
  const { call, args, result } = outcome;
  const entry: ToolCall = {
    name: call.name,
    args,
    argsJson: JSON.stringify(args),
    result: result.error ? "" : result.output.slice(0, HISTORY_RESULT_CHARS),
    error: result.error ? result.output.slice(0, HISTORY_RESULT_CHARS) : "",
    duration: result.durationMs,
  };
  state.toolHistory.push(entry);
  if (state.toolHistory.length > HISTORY_LIMIT)
    state.toolHistory.splice(0, state.toolHistory.length - HISTORY_LIMIT);
  if (
    !result.error &&
    (call.name === "Patch" || call.name === "Write") &&
    typeof args.path === "string"
  ) {
    state.patchCounts[args.path] = (state.patchCounts[args.path] ?? 0) + 1;
  }
}

export async function runToolPhase(
  calls: readonly ToolCallRequest[],
  invalidCalls: ReadonlyMap<string, string>,
  offered: ReadonlyMap<string, Tool>,
  state: AgentState,
  deps: EngineDeps,
  signal: AbortSignal,
): Promise<{ outcomes: ToolOutcome[]; injections: Injection[] }> {
  const injections: Injection[] = [];
  // Hooks and approval prompts run one call at a time, in order; execution may overlap.
  const prepared: Prepared[] = [];
  for (const call of calls) {
    if (signal.aborted)
      prepared.push({
        call,
        tool: undefined,
        args: call.arguments,
        ready: false,
        result: refused("Not run: stopped by the user."),
      });
    else
      prepared.push(
        await prepare(call, offered, state, deps, injections, invalidCalls.get(call.id), signal),
      );
  }

  // Plugin tools receive the same context hooks see, taken once for the whole step.
  const sdk = prepared.some((p) => p.ready && p.tool.source === "plugin")
    ? buildContext(state, deps)
    : undefined;
  const results = await runToolCalls(
    prepared,
    async (p) => {
      if (!p.ready) return p.result;
      const live = liveOutput(p.call.id, deps.emit);
      try {
        return await executeToolCall(p.tool, p.args, {
          workdir: deps.workdir,
          signal,
          state: state.tools,
          timeoutMs: deps.toolTimeoutMs,
          sdk,
          onOutput: live.push,
          callId: p.call.id,
          sessionId: state.sessionId,
          emit: deps.emit,
          approve: deps.approve,
          questions: deps.questions,
          limitTurn: (limits) => limitTurn(state, limits),
        });
      } finally {
        live.close();
      }
    },
    (p) => p.ready && p.tool.parallel,
  );

  const outcomes: ToolOutcome[] = [];
  for (let i = 0; i < prepared.length; i++) {
    const p = prepared[i];
    let result = results[i];
    // History and stats include this call before AfterToolExecution runs: loop detectors
    // compare the latest entries (the after-context carries no arguments of its own).
    remember(state, { call: p.call, tool: p.tool, args: p.args, result });
    countTool(state.stats, p.call.name, result.error);
    // Claude's PostToolUse does not run for a call that never ran (blocked, refused, unknown).
    const handlers = deps.hooks.handlers("afterToolExecution");
    const after = await runAfterTool(p.ready ? handlers : handlers.filter((h) => !h.claudeHook), {
      ...buildContext(state, deps),
      tool: {
        name: p.call.name,
        result: result.error ? "" : result.output,
        error: result.error ? result.output : "",
        duration: result.durationMs,
      },
      toolCallId: p.call.id,
    });
    reportOutcome(deps, after, { state, call: p.call });
    state.turnDisabledTools.push(...after.disableTools);
    if (after.output !== undefined) result = { ...result, output: after.output };
    if (after.stopTurn !== undefined) state.turnStop ??= after.stopTurn;
    injections.push(...after.injections);
    outcomes.push({ call: p.call, tool: p.tool, args: p.args, result });
  }
  return { outcomes, injections };
}
