/** `question/answer`: a client answers a question it was asked. */
import type { BridgeQuestions } from "../questions.ts";
import type { CallHandlers } from "../service.ts";

export function questionHandlers(
  questions: BridgeQuestions,
): Pick<CallHandlers, "question/answer"> {
  return {
    "question/answer": (answer, { client }) => {
      questions.answer(client, answer);
      return undefined;
    },
  };
}
