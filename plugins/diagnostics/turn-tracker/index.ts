/**
 * turn-tracker: the seed's Turn Tracker example. Every `every` turns, a status line (turn,
 * context tokens and percentage, agent, model, message count) goes to the model as a user
 * message that is ejected after one turn; a response longer than `long_response_chars` gets a
 * note suggesting shorter answers.
 */
import type { AfterResponseContext, BeforeChatContext, Result } from "@islet/sdk";

function positiveInt(config: Record<string, unknown>, key: string, fallback: number): number {
  const value = config[key];
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : fallback;
}

let lastResponse = 0;

export function beforeChat(hctx: BeforeChatContext): Result | undefined {
  const every = positiveInt(hctx.pluginConfig, "every", 3);
  if (hctx.stats.turns === 0 || hctx.stats.turns % every !== 0) return undefined;

  return {
    message:
      `=== TURN ${hctx.stats.turns}` +
      ` | context: ${hctx.tokens.estimate} tokens (${hctx.tokens.percent.toFixed(0)}%)` +
      ` | agent: ${hctx.agent}` +
      ` | model: ${hctx.modelInfo.name}` +
      ` | messages: ${hctx.messageCount} ===`,
    role: "user",
    prefix: "[turn-tracker] ",
    eject: true,
  };
}

export function afterResponse(hctx: AfterResponseContext): Result | undefined {
  lastResponse = hctx.content.length;

  if (lastResponse > positiveInt(hctx.pluginConfig, "long_response_chars", 5000)) {
    return {
      message: `Last response was ${lastResponse} characters -- that's very long. Consider asking for shorter answers.`,
      prefix: "[turn-tracker] ",
    };
  }

  return undefined;
}
