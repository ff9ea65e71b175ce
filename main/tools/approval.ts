/**
 * Whether a tool call may run: a rule per tool (ask / allow / deny), remembered per workspace in
 * `<globalHome>/approvals.json`, and for "ask" an approval question on the host's QuestionPort
 * (a terminal prompt, the app's dialog through the bridge, `--yes`).
 */
import fs from "node:fs/promises";
import path from "node:path";
import { writeAtomically } from "../config/atomic-write.ts";
import { ApprovalRuleSchema } from "../core/approval-rules.ts";
import type { Denial } from "../core/denial.ts";
import { z } from "zod";
import type { AnswerFor, QuestionPort } from "../host/questions.ts";
import { formatProblem, type Problem, type ProblemSink } from "../host/problem.ts";
import { previewChange } from "./change-preview.ts";
import { builtinTools } from "./index.ts";
import { ApprovalBindings } from "./approval-bindings.ts";
import type { ApprovalRule, ToolBinding } from "./types.ts";

export type { ApprovalRule };

/** "always"/"never" answer this call and remember the rule for the workspace. */
export type ApprovalAnswer = AnswerFor<"approval">;

function nobodyAsked(toolName: string): string {
  return `${toolName} needs approval and nobody could be asked (no terminal, no --yes); pass --yes to approve tool calls, or set its policy to allow`;
}

/** Who is asked about a call that needs a yes, and until when (the turn's stop signal). */
export interface ApprovalAsker {
  /** Missing: nobody can be asked (headless without --yes), so "ask" becomes a denial. */
  questions?: QuestionPort;
  /** Aborts when the turn stops: the question is withdrawn and the call is not run. */
  signal?: AbortSignal;
  /** Plugins whose BeforeToolExecution hooks rewrote the model's arguments into `args`. */
  rewrittenBy?: readonly string[];
  /** Of those, the ones granted `permissions.rewrite` for this tool: their rewrites need no person. */
  rewritesGranted?: readonly string[];
  /** A running command's or skill's allowed-tools covers this call: no question, unless "never". */
  preApproved?: boolean;
  /**
   * Asked just before a person would be (Claude's PermissionRequest hooks): an answer instead of
   * the question, or undefined to ask. Never consulted when nobody reads the question.
   */
  beforeAsking?(
    toolName: string,
    args: Record<string, unknown>,
  ): Promise<
    | { allowed: boolean; by: string; message?: string; arguments?: Record<string, unknown> }
    | undefined
  >;
}

export interface ApprovalDecision {
  allowed: boolean;
  reason?: string;
  /** Who said no (set when not allowed). */
  denied?: Denial;
  /** A hook answered instead of a person (PermissionRequest): which. */
  by?: string;
  /** That hook's allow changed the call's input: what it runs with instead. */
  arguments?: Record<string, unknown>;
}

/** Where a tool's rule before anyone chose one is read: the `approval` its definition declares. */
export interface ToolApprovals {
  approval(toolName: string): ApprovalRule | undefined;
}

let builtinRules: Map<string, ApprovalRule | undefined> | undefined;

/** The built-in tools' own rules, for a policy given no tools (made once, not per call). */
const BUILTIN_APPROVALS: ToolApprovals = {
  approval: (toolName) => {
    builtinRules ??= new Map(builtinTools().map((t) => [t.name, t.approval]));
    return builtinRules.get(toolName);
  },
};

export interface ApprovalPolicyOptions {
  globalHome: string;
  workdir: string;
  /** The tools whose declared rules are the defaults (the engine's registry); else the built-in tools. */
  tools?: ToolApprovals;
  /** Where the one-line report about an unreadable approvals file goes (default stderr). */
  warn?: ProblemSink;
}

const storeSchema = z.record(z.string(), z.record(z.string(), ApprovalRuleSchema));
type Store = z.infer<typeof storeSchema>;

export function approvalsFile(globalHome: string): string {
  return path.join(globalHome, "approvals.json");
}

export class ApprovalPolicy {
  readonly file: string;
  readonly workdir: string;
  private readonly options: ApprovalPolicyOptions;
  private readonly warned = new Set<string>();
  private readonly bindings: ApprovalBindings;
  /** Serializes read-modify-write so two quick `remember`s in one process cannot lose one. */
  private writes: Promise<void> = Promise.resolve();

  constructor(options: ApprovalPolicyOptions) {
    this.options = options;
    this.file = approvalsFile(options.globalHome);
    this.workdir = path.resolve(options.workdir);
    this.bindings = new ApprovalBindings(options.globalHome, this.workdir);
  }

  /** The rule a tool has before anyone chose one: what the tool declares, else "ask". */
  defaultRule(toolName: string): ApprovalRule {
    const tools = this.options.tools ?? BUILTIN_APPROVALS;
    return tools.approval(toolName) ?? "ask";
  }

  /** The rule in force for a tool here: remembered, else the default. */
  async rule(toolName: string): Promise<ApprovalRule> {
    const stored = (await this.load()).store[this.workdir]?.[toolName];
    return stored ?? this.defaultRule(toolName);
  }

  /** Rules remembered for this workspace. */
  async remembered(): Promise<Record<string, ApprovalRule>> {
    return { ...(await this.load()).store[this.workdir] };
  }

  /**
   * `binding`: an MCP tool's server and definition. Its "always" holds only while both are those
   * it was given to; otherwise the person is asked again, told what changed.
   */
  async decide(
    toolName: string,
    args: Record<string, unknown>,
    asker: ApprovalAsker = {},
    binding?: ToolBinding,
  ): Promise<ApprovalDecision> {
    const remembered = (await this.load()).store[this.workdir]?.[toolName];
    let rule = remembered ?? this.defaultRule(toolName);
    const changed =
      remembered === "allow" && binding ? await this.bindingChanges(toolName, binding) : [];
    if (changed.length > 0) rule = "ask";
    const rewrittenBy = asker.rewrittenBy ?? [];
    // A plugin that rewrites a Bash command or a Write path would otherwise run what it likes
    // under the user's "always" or --yes: for a tool that asks by default, a person confirms
    // these exact arguments, knowing who rewrote them, unless each rewriter was granted it.
    const granted = asker.rewritesGranted ?? [];
    const needsPerson =
      rewrittenBy.some((plugin) => !granted.includes(plugin)) &&
      this.defaultRule(toolName) !== "allow";
    if (rule === "allow" && !needsPerson) return { allowed: true };
    if (asker.preApproved && rule !== "deny" && !needsPerson && changed.length === 0)
      return { allowed: true };
    if (rule === "deny") {
      return {
        allowed: false,
        denied: "rule",
        reason: `${toolName} is set to never run in this workspace (${this.file})`,
      };
    }
    if (needsPerson && (!asker.questions || asker.questions.automatic)) {
      return {
        allowed: false,
        denied: "no_one",
        reason: `${toolName} arguments were rewritten by plugin ${rewrittenBy.join(", ")}; such a call needs a person's confirmation (at a terminal or in the app), which --yes does not give, unless the plugin's permissions.rewrite names ${toolName} and was granted`,
      };
    }
    if (!asker.questions) {
      const why = changed.length > 0 ? ` (${changed[0]})` : "";
      return { allowed: false, denied: "no_one", reason: `${nobodyAsked(toolName)}${why}` };
    }
    if (asker.beforeAsking && !asker.questions.automatic) {
      const hook = await asker.beforeAsking(toolName, args).catch(() => undefined);
      if (hook && !hook.allowed)
        return {
          allowed: false,
          denied: "rule",
          reason: `denied by ${hook.by}${hook.message ? `: ${hook.message}` : ""}`,
        };
      // Rewritten arguments or a changed server are a person's to confirm, whatever a hook says.
      if (hook?.allowed && !needsPerson && changed.length === 0)
        return {
          allowed: true,
          by: hook.by,
          ...(hook.arguments ? { arguments: hook.arguments } : {}),
        };
    }
    // A Write or Patch is approved with its diff in view; a failure to read only loses the view.
    const change = await previewChange(toolName, args, this.workdir).catch(() => undefined);
    let answer: ApprovalAnswer;
    try {
      answer = await asker.questions.ask(
        {
          kind: "approval",
          tool: toolName,
          arguments: args,
          workdir: this.workdir,
          ...(change ? { change } : {}),
          ...(rewrittenBy.length > 0 ? { rewrittenBy: [...rewrittenBy] } : {}),
          ...(changed.length > 0 ? { changed } : {}),
        },
        asker.signal,
      );
    } catch (err) {
      // Withdrawn (the turn stopped, the window closed) or the host failed: the safe default.
      return {
        allowed: false,
        denied: asker.signal?.aborted ? "stopped" : "no_one",
        reason: `${toolName} was not approved: ${(err as Error).message}`,
      };
    }
    // "always" for a rewritten call approves this call only: the rule would cover the plugin too.
    if (answer === "always" && !needsPerson) await this.remember(toolName, "allow", binding);
    if (answer === "never") await this.remember(toolName, "deny");
    if (answer === "allow" || answer === "always") return { allowed: true };
    // The fixed "nobody" port answers no without anyone reading the question.
    if (asker.questions.automatic)
      return { allowed: false, denied: "no_one", reason: nobodyAsked(toolName) };
    return { allowed: false, denied: "user", reason: `the user said no to this ${toolName} call` };
  }

  /**
   * Why a remembered "always" does not hold for this server and definition (empty: it holds). An
   * "always" with no binding on record (set in Settings, or from before bindings) is bound to what
   * answers now.
   */
  private async bindingChanges(toolName: string, now: ToolBinding): Promise<string[]> {
    const was = await this.bindings.get(toolName);
    if (!was) {
      await this.bindings.set(toolName, now);
      return [];
    }
    if (was.identity !== now.identity)
      return [
        `"Always" was given to ${was.server}; now ${now.server} answers as ${toolName}, or its command, arguments or URL changed.`,
      ];
    if (was.definition !== now.definition)
      return [
        `${now.server} changed this tool's description or input schema since "always" was given.`,
        `Before: ${brief(was.description)}`,
        `Now: ${brief(now.description)}`,
      ];
    return [];
  }

  /**
   * Persists a rule for this workspace; "ask" forgets the tool's rule (back to the default). An
   * "allow" with a binding holds for that server and definition only.
   */
  remember(toolName: string, rule: ApprovalRule, binding?: ToolBinding): Promise<void> {
    const write = this.writes.then(async () => {
      await this.bindings.set(toolName, rule === "allow" ? binding : undefined);
      const { store, corrupt } = await this.load();
      const rules = { ...store[this.workdir] };
      if (rule === "ask") delete rules[toolName];
      else rules[toolName] = rule;
      const next: Store = { ...store, [this.workdir]: rules };
      if (Object.keys(rules).length === 0) delete next[this.workdir];
      // Keep the unreadable file for the user to inspect instead of silently overwriting it.
      if (corrupt) await fs.rename(this.file, `${this.file}.bad`).catch(() => undefined);
      await writeAtomically(this.file, `${JSON.stringify(next, null, 2)}\n`);
    });
    this.writes = write.catch(() => undefined);
    return write;
  }

  private async load(): Promise<{ store: Store; corrupt: boolean }> {
    let text: string;
    try {
      text = await fs.readFile(this.file, "utf8");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return { store: {}, corrupt: false };
      this.warnOnce({
        source: "approvals",
        file: this.file,
        title: "cannot read it",
        cause: (err as Error).message,
        suggestion: "approval rules ignored",
      });
      return { store: {}, corrupt: false };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (err) {
      this.warnOnce({
        source: "approvals",
        file: this.file,
        title: "not valid JSON",
        cause: (err as Error).message,
        suggestion: "approval rules ignored",
      });
      return { store: {}, corrupt: true };
    }
    const parsed = storeSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field =
        issue.path.length > 0 ? `"${issue.path.map(String).join('" > "')}"` : "top level";
      this.warnOnce({
        source: "approvals",
        file: this.file,
        title: `${field}: ${issue.message}`,
        cause: 'expected {"<workdir>": {"<tool>": "ask"|"allow"|"deny"}}',
        suggestion: "approval rules ignored",
      });
      return { store: {}, corrupt: true };
    }
    return { store: parsed.data, corrupt: false };
  }

  private warnOnce(problem: Problem): void {
    const line = formatProblem(problem);
    if (this.warned.has(line)) return;
    this.warned.add(line);
    if (this.options.warn) this.options.warn(problem);
    else process.stderr.write(`${line}\n`);
  }
}

function brief(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line || "(none)";
}
