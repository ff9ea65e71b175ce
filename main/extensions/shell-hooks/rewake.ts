/**
 * What `asyncRewake` hooks found when they ended in the background: kept per session and handed to
 * the model at its next step, after `rewakeMessage`, with the user's one line (`rewakeSummary`).
 */
import type { HookHandler, HookResults, HookTiming } from "../../turn/hooks/types.ts";
import type { ShellHookSpec } from "./config.ts";
import { readVerdict } from "./output.ts";
import type { HookRun } from "./run-command.ts";

interface Finding {
  source: string;
  text: string;
  summary?: string;
}

export class Rewakes {
  private readonly waiting = new Map<string, Finding[]>();

  /** A finished background run: kept when it has something to say (a block, context, a message). */
  add(spec: ShellHookSpec, label: string, session: string, run: HookRun): void {
    const verdict = readVerdict(spec.event, run, spec.timeoutS);
    const said = verdict.reason ?? verdict.context ?? verdict.systemMessage;
    if (!said || (!verdict.block && verdict.context === undefined && !verdict.systemMessage))
      return;
    const text = spec.rewakeMessage ? `${spec.rewakeMessage}\n\n${said}` : said;
    const summary = ownSummary(run.stdout) ?? spec.rewakeSummary;
    const list = this.waiting.get(session) ?? [];
    list.push({ source: `${label}:${spec.event}`, text, ...(summary ? { summary } : {}) });
    this.waiting.set(session, list);
  }

  /** Hands a session's waiting findings to the model, once. */
  handler(): HookHandler {
    return {
      source: "background hooks",
      timing: "beforeChat",
      // Its result carries Claude's extras (`shown`).
      claudeHook: true,
      invoke: async (ctx) => {
        const waiting = this.waiting.get(ctx.session.id);
        if (!waiting?.length) return { status: "skipped", reason: "nothing came back" };
        this.waiting.delete(ctx.session.id);
        const message = waiting.map((w) => `[${w.source}] ${w.text}`).join("\n\n");
        // The user's one line per finding (Claude's rewakeSummary); the model gets the whole.
        const notice = waiting.flatMap((w) => (w.summary ? [w.summary] : [])).join("\n");
        // `shown`, not `notice`: a notice would take the message's place.
        const result = { message, role: "user", ...(notice ? { shown: notice } : {}) };
        return { status: "ok", result: result as HookResults[HookTiming] };
      },
    };
  }
}

/**
 * A background hook's own `rewakeSummary`: on the first stdout line that is a JSON object, as
 * Claude Code reads it (cut at 300 characters); it takes the configured one's place.
 */
function ownSummary(stdout: string): string | undefined {
  const line = stdout.split("\n").find((l) => l.trimStart().startsWith("{"));
  if (!line) return undefined;
  try {
    const json: unknown = JSON.parse(line);
    const value = (json as Record<string, unknown> | null)?.rewakeSummary;
    return typeof value === "string" && value.trim() !== ""
      ? value.trim().slice(0, 300)
      : undefined;
  } catch {
    return undefined;
  }
}
