/**
 * The engine's questions this window was asked (`question/asked`), until answered here or
 * withdrawn (`question/withdrawn`: answered elsewhere, the turn stopped, the engine closing).
 */
import { useCallback, useState } from "react";
import type { QuestionAnswer, QuestionAsked } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent } from "../bridge/hooks.ts";

export interface Questions {
  pending: QuestionAsked[];
  /** Why the last answer was refused (e.g. it had just been withdrawn), or null. */
  error: string | null;
  answer(answer: QuestionAnswer): void;
}

export function useQuestions(filter: (q: QuestionAsked) => boolean): Questions {
  const bridge = useBridge();
  const [pending, setPending] = useState<QuestionAsked[]>([]);
  const [error, setError] = useState<string | null>(null);
  useBridgeEvent("question/asked", (asked) => {
    if (filter(asked)) setPending((list) => [...list.filter((q) => q.id !== asked.id), asked]);
  });
  useBridgeEvent("question/withdrawn", ({ id }) =>
    setPending((list) => list.filter((q) => q.id !== id)),
  );
  const answer = useCallback(
    (a: QuestionAnswer) => {
      setPending((list) => list.filter((q) => q.id !== a.id));
      setError(null);
      bridge.call("question/answer", a).catch((err: unknown) => setError(errorMessage(err)));
    },
    [bridge],
  );
  return { pending, error, answer };
}
