/** `islet run`: one prompt (or /command) through the agent, streamed as text or JSON events. */
import { createEngine } from "../engine/bootstrap.ts";
import type { Engine } from "../engine/engine.ts";
import { recordSessionModel, restoreSessionModel } from "../engine/session-model.ts";
import { cliQuestions } from "./questions-tty.ts";
import {
  COMMON_OPTIONS,
  MODEL_OPTIONS,
  parseFlags,
  parsePositiveInt,
  parseVars,
  pluginFlags,
} from "./options.ts";
import { jsonRenderer, textRenderer, type Output, warningLines } from "./render.ts";
import { UsageError } from "./usage.ts";
import { McpStartLines, stillStartingLine } from "./mcp-start-lines.ts";

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function runCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    ...MODEL_OPTIONS,
    session: { type: "string" },
    "max-steps": { type: "string" },
    yes: { type: "boolean", short: "y" },
    json: { type: "boolean" },
  });
  let prompt = positionals.join(" ").trim();
  if (prompt === "" && !process.stdin.isTTY) prompt = (await readStdin()).trim();
  if (prompt === "")
    throw new UsageError('run: a prompt is required (islet run "…", or pipe it on stdin)');
  const maxSteps = parsePositiveInt(values["max-steps"], "--max-steps");
  const vars = parseVars(values.set);
  const interactive =
    process.stdin.isTTY === true && process.stderr.isTTY === true && positionals.length > 0;

  const mcpLines = new McpStartLines(warningLines(io));
  const engine = await createEngine({
    home: values.home,
    workdir: values.workdir,
    envFile: values["env-file"],
    flags: { provider: values.provider, model: values.model, baseUrl: values["base-url"] },
    questions: cliQuestions({ yes: values.yes, interactive }),
    maxSteps,
    vars,
    plugins: pluginFlags(values),
    warn: mcpLines.sink,
  });
  // Plugins asking for more than they were granted: asked before the turn, so it runs with them.
  await engine.askPluginPermissions();
  const emit = values.json
    ? jsonRenderer(io)
    : textRenderer(io, { color: process.stderr.isTTY === true && !process.env.NO_COLOR });
  const conversation = await engine.open({
    sessionId: values.session,
    agent: values.agent,
    emit,
    // `islet run /hello` works before any model is set up.
    modelOptional: prompt.startsWith("/"),
  });
  // A one-shot has no typing time to start MCP servers in: wait for them, but not for ever (an
  // offline `npx` can hang until its own limit); a slow one's tools join once it runs.
  const waitedFor = await engine.mcp.startAllWithin(mcpStartWaitMs(process.env));
  mcpLines.release();
  // Those retrying after a failed start have their line already.
  const stillStarting = waitedFor.filter((name) => !mcpLines.named.has(name));
  if (stillStarting.length > 0) io.err(`${stillStartingLine(stillStarting)}\n`);
  // A resumed session goes on with its last model, unless the command line names one.
  const explicitModel = [values.provider, values.model, values["base-url"]].some(Boolean);
  if (values.session && !explicitModel) {
    const unavailable = await restoreSessionModel(engine, conversation);
    const { provider, model } = conversation.savedModel;
    if (unavailable)
      io.err(
        `warning: session ${conversation.id} last used ${provider} ${model}, which cannot be used now (${unavailable}); going on with the default (--provider and --model choose another)\n`,
      );
  }

  // First Ctrl-C stops the turn (the session is saved); a second one leaves at once.
  let interrupted = false;
  const onSigint = () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    conversation.stop();
  };
  process.on("SIGINT", onSigint);
  try {
    const result = await conversation.submit(prompt);
    // A command that ran a turn (a Markdown command, a skill) has the prompt it sent as its
    // output: the answer was the turn's, so that prompt is not printed after it.
    if (result.kind === "command" && !result.silent && result.outcome === undefined) {
      if (values.json)
        io.out(
          `${JSON.stringify({ type: "notice", source: `/${result.name}`, text: result.output })}\n`,
        );
      else io.out(`${result.output}\n`);
    }
    const outcome = result.kind === "turn" ? result.outcome : result.outcome;
    if (outcome && outcome.status !== "error") await recordSessionModel(engine, conversation);
    if (!values.json) io.err(`session ${conversation.id}\n`);
    return outcome?.status === "error" ? 1 : 0;
  } finally {
    process.off("SIGINT", onSigint);
    await conversation.close();
    await sessionHooksEnded(engine, io);
    await engine.close();
  }
}

/**
 * The session's last hook commands that went on in the background (an `async` Stop hook that
 * logs or notifies) end before the process does, each within its own time limit: closing the
 * engine would stop them half way. Ctrl-C stops them at once.
 */
async function sessionHooksEnded(engine: Engine, io: Output): Promise<void> {
  let leave: () => void = () => {};
  const interrupted = new Promise<void>((resolve) => (leave = resolve));
  process.once("SIGINT", leave);
  try {
    await Promise.race([
      engine.declarative.sessionHooksEnded((hooks) =>
        io.err(
          `waiting for ${hooks.length === 1 ? "a hook" : `${hooks.length} hooks`} still running (${hooks.join(", ")}); Ctrl-C stops ${hooks.length === 1 ? "it" : "them"}\n`,
        ),
      ),
      interrupted,
    ]);
  } finally {
    process.off("SIGINT", leave);
  }
}

/** How long `islet run` waits for MCP servers before the first request (ISLET_MCP_START_WAIT_MS). */
function mcpStartWaitMs(env: NodeJS.ProcessEnv): number {
  const set = Number(env.ISLET_MCP_START_WAIT_MS);
  return Number.isFinite(set) && set >= 0 ? set : 10_000;
}
