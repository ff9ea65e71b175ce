/**
 * `outputStyles/*`: the chat header's output style picker. Selecting goes through the same path
 * as `/output-style NAME` (the session file records it; the next model call uses it).
 */
import { chooseOutputStyle, type OutputStyleDeps } from "../../extensions/output-styles/command.ts";
import { formatProblem } from "../../host/problem.ts";
import type { Chats } from "../chats.ts";
import type { CallHandlers } from "../service.ts";

/**
 * What the picker asks of the engine: the styles found now, and where a session's choice is
 * saved (as `/output-style` does).
 */
export type OutputStylesPort = OutputStyleDeps;

export function outputStyleHandlers(
  port: OutputStylesPort,
  chats: Chats,
): Pick<CallHandlers, "outputStyles/list" | "outputStyles/select"> {
  return {
    "outputStyles/list": ({ conversationId }, { client }) => {
      const { session } = chats.member(client, conversationId, "outputStyles/list").conversation;
      const found = port.styles();
      const styles = [
        { name: "default", description: "The agent's own system prompt." },
        ...found.items
          .map((s) => ({ name: s.name, description: s.description }))
          .sort((a, b) => a.name.localeCompare(b.name)),
      ];
      return {
        styles,
        current: session.state.outputStyle?.name ?? "default",
        errors: found.errors.map(formatProblem),
      };
    },
    "outputStyles/select": ({ conversationId, style }, { client }) => {
      const { session } = chats.member(client, conversationId, "outputStyles/select").conversation;
      return { style: chooseOutputStyle(port, session, style) };
    },
  };
}
