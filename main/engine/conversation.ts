/**
 * One open conversation of the engine: prompts and slash commands go in, events come out through
 * the session's sink. Made by `Engine.open()`.
 */
import type { AgentSession, RunOutcome } from "../turn/loop.ts";
import { parseCommandLine } from "../commands/types.ts";
import type { SlashCommand } from "../commands/types.ts";
import type { QuestionPort } from "../host/questions.ts";
import type { Context } from "../../plugins/sdk/index.ts";

/** What a conversation asks of the engine (Engine builds it). */
export interface ConversationPort {
  readonly workdir: string;
  command(name: string): SlashCommand | undefined;
  /** Why `/name` is not a command, as one line. */
  missingCommand(name: string): string;
  agentNames(): string[];
  toolNames(): string[];
  /** Starts MCP servers added since the conversation opened; none is waited for. */
  startMcp(): void;
  /** The shell a command's !`cmd` lines run in, approved by `questions`. */
  commandShell(questions: QuestionPort | undefined): (command: string) => Promise<string>;
  /** Claude Code's SessionEnd hooks for a conversation that closes ("other": not a /clear). */
  sessionEnd(context: Context): Promise<void>;
  /** Claude Code's UserPromptExpansion hooks for a command's expanded prompt. */
  promptExpansion(
    session: { id: string; workdir: string },
    expansion: { name: string; args: string; source: string; prompt: string },
  ): Promise<{ blocked?: string; context?: string }>;
  closeSession(id: string): Promise<void>;
}

export type TurnResult =
  | { kind: "turn"; outcome: RunOutcome }
  | { kind: "command"; name: string; output: string; silent: boolean; outcome?: RunOutcome };

/** One open conversation: prompts and slash commands go in, events come out through `emit`. */
export class Conversation {
  readonly session: AgentSession;
  /** The provider and model a saved session last used (empty for a new one). */
  readonly savedModel: { provider: string; model: string };
  private readonly engine: ConversationPort;
  /** Who approves this conversation's tool calls (and its commands' !`cmd` lines). */
  private readonly questions: QuestionPort | undefined;

  constructor(
    engine: ConversationPort,
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
    const command = parsed && this.engine.command(parsed.name);
    // Servers added since the conversation opened start now; none is waited for.
    this.engine.startMcp();
    if (!parsed) return { kind: "turn", outcome: await this.session.send(text) };
    if (!command) throw new Error(this.engine.missingCommand(parsed.name));
    // Shown and saved like a prompt, its output after it: a reopened session shows both.
    this.session.announce({ type: "user_message", text });
    let result;
    try {
      result = await command.run(parsed.args, {
        session: this.session,
        agentNames: () => this.engine.agentNames(),
        toolNames: () => this.engine.toolNames(),
        context: () => this.session.context(),
        workdir: this.engine.workdir,
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
    const expanded = result.forward
      ? await this.engine.promptExpansion(
          { id: this.id, workdir: this.engine.workdir },
          {
            name: command.aliasOf ?? parsed.name,
            args: parsed.args,
            // Claude's kinds: a custom command is a skill there.
            source:
              command.source === "builtin" || command.source === "plugin"
                ? command.source
                : "skill",
            prompt: result.output,
          },
        )
      : {};
    if (expanded.blocked !== undefined) {
      // Not sent: the user sees why, as for a prompt a UserPromptSubmit hook blocked.
      this.session.announce({
        type: "notice",
        source: "hooks",
        text: `Prompt blocked: ${expanded.blocked}`,
      });
      await this.session.settle();
    } else if (result.forward)
      out.outcome = await this.session.send(
        expanded.context ? `${result.output}\n\n${expanded.context}` : result.output,
        {
          preApproved: result.preApproved,
          disallowedTools: result.disallowedTools,
          model: result.model,
        },
      );
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
    if (this.id) await this.engine.sessionEnd(this.session.context());
    await this.engine.closeSession(this.id);
  }
}
