/**
 * One open conversation of the engine: prompts and slash commands go in, events come out through
 * the session's sink. Made by `Engine.open()`.
 */
import type { AgentSession, RunOutcome } from "../turn/loop.ts";
import { parseCommandLine } from "../commands/types.ts";
import type { QuestionPort } from "../host/questions.ts";
import type { Engine } from "./engine.ts";

export type TurnResult =
  | { kind: "turn"; outcome: RunOutcome }
  | { kind: "command"; name: string; output: string; silent: boolean; outcome?: RunOutcome };

/** One open conversation: prompts and slash commands go in, events come out through `emit`. */
export class Conversation {
  readonly session: AgentSession;
  /** The provider and model a saved session last used (empty for a new one). */
  readonly savedModel: { provider: string; model: string };
  private readonly engine: Engine;
  /** Who approves this conversation's tool calls (and its commands' !`cmd` lines). */
  private readonly questions: QuestionPort | undefined;

  constructor(
    engine: Engine,
    session: AgentSession,
    savedModel: { provider: string; model: string } = { provider: "", model: "" },
    questions?: QuestionPort,
  ) {
    this.engine = engine;
    this.session = session;
    this.savedModel = savedModel;
    this.questions = questions;
  }

  get id(): string {
    return this.session.state.sessionId;
  }

  async submit(text: string): Promise<TurnResult> {
    const parsed = parseCommandLine(text);
    const command = parsed && this.engine.commands.get(parsed.name);
    // Servers added since the conversation opened start now; none is waited for.
    this.engine.mcp.startInBackground();
    if (!parsed) return { kind: "turn", outcome: await this.session.send(text) };
    if (!command) throw new Error(this.engine.missingCommand(parsed.name));
    // Shown and saved like a prompt, its output after it: a reopened session shows both.
    this.session.announce({ type: "user_message", text });
    let result;
    try {
      result = await command.run(parsed.args, {
        session: this.session,
        agentNames: () => [...this.engine.agents.keys()],
        toolNames: () => this.engine.tools.names(),
        context: () => this.session.context(),
        workdir: this.engine.homes.workdir,
        shell: this.engine.commandShell(this.questions),
        questions: this.questions,
      });
    } catch (err) {
      this.session.announce({ type: "error", errorType: "", message: (err as Error).message });
      await this.session.settle();
      throw err;
    }
    const out: TurnResult = {
      kind: "command",
      name: parsed.name,
      output: result.output,
      silent: result.silent ?? false,
    };
    if (result.forward)
      out.outcome = await this.session.send(result.output, {
        allowedTools: result.allowedTools,
        disallowedTools: result.disallowedTools,
        model: result.model,
      });
    else {
      if (!out.silent)
        this.session.announce({ type: "command_output", name: out.name, output: out.output });
      await this.session.settle();
    }
    return out;
  }

  stop(): void {
    this.session.stop();
  }

  async close(): Promise<void> {
    // Claude Code's SessionEnd hooks ("other": not a /clear or a logout).
    if (this.id) await this.engine.declarative.sessionEnd(this.session.context(), "other");
    await this.engine.store.close(this.id);
  }
}
