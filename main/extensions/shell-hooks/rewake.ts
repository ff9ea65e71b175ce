/**
 * Background (`asyncRewake`) shell hooks: what one says when it ends waits, per session, for the
 * session's next step, where a `beforeChat` handler hands it to the model once.
 */
import type { HookHandler, HookResults, HookTiming } from "../../turn/hooks/types.ts";
import type { ShellHookSpec } from "./config.ts";
import { readVerdict } from "./output.ts";
import type { HookRun } from "./run-command.ts";

export class RewakeQueue {
  /** What background (`asyncRewake`) hooks said when they ended, per session, for its next step. */
  private readonly rewakes = new Map<string, { source: string; text: string }[]>();

  private readonly signal: AbortSignal;

  /** `signal`: aborted when the hooks unload; a run ending afterwards is not heard. */
  constructor(signal: AbortSignal) {
    this.signal = signal;
  }

  /** A background run: an `asyncRewake` hook's word, when it has one, waits for the next step. */
  whenDone(
    spec: ShellHookSpec,
    origin: { label: string },
    session: string,
    running: Promise<HookRun>,
  ): void {
    if (spec.background !== "rewake") return;
    void running.then((run) => {
      if (this.signal.aborted) return;
      const verdict = readVerdict(spec.event, run, spec.timeoutS);
      const said = verdict.reason ?? verdict.context ?? verdict.systemMessage;
      if (!said || (!verdict.block && verdict.context === undefined && !verdict.systemMessage))
        return;
      const text = spec.rewakeMessage ? `${spec.rewakeMessage}\n\n${said}` : said;
      const list = this.rewakes.get(session) ?? [];
      list.push({ source: `${origin.label}:${spec.event}`, text });
      this.rewakes.set(session, list);
    });
  }

  /** Hands a session's waiting background findings to the model, once. */
  handler(): HookHandler {
    return {
      source: "background hooks",
      timing: "beforeChat",
      invoke: async (ctx) => {
        const waiting = this.rewakes.get(ctx.session.id);
        if (!waiting?.length) return { status: "skipped", reason: "nothing came back" };
        this.rewakes.delete(ctx.session.id);
        const message = waiting.map((w) => `[${w.source}] ${w.text}`).join("\n\n");
        return { status: "ok", result: { message, role: "user" } as HookResults[HookTiming] };
      },
    };
  }
}
