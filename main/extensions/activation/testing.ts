/** Test helpers for activation: a person who answers the activation question one way. */
import type { Question, QuestionPort } from "../../host/questions.ts";

/** Answers activation with `activation`, approvals with allow, the rest with deny; records all. */
export function answering(activation: "allow" | "deny"): { port: QuestionPort; asked: Question[] } {
  const asked: Question[] = [];
  const port = {
    ask: async (q: Question) => {
      asked.push(q);
      if (q.kind === "plugin-activation") return activation;
      if (q.kind === "approval") return "allow";
      return "deny";
    },
  } as QuestionPort;
  return { port, asked };
}

/** The part of an OpenAI chat request body the activation tests read. */
export type ChatBody = {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
};
