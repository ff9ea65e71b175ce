/**
 * The engine's questions to the person, for the UI hosts: a QuestionPort whose questions become
 * `question/asked` events to an address (the clients of the asking conversation, or every client
 * for the engine's own questions) and are answered by `question/answer`. The first answer wins
 * and the other clients get `question/withdrawn`; a question whose turn stops, or whose clients
 * have all gone, is withdrawn and the engine gets the safe default.
 */
import { ProblemError } from "../host/problem.ts";
import type {
  AnswerFor,
  Question,
  QuestionKind,
  QuestionOf,
  QuestionPort,
} from "../host/questions.ts";
import type { QuestionAnswer } from "./contract.ts";
import { toClient, type Address, type BridgeService, type ClientId } from "./service.ts";

type Service = Pick<BridgeService, "emit" | "recipients" | "onDisconnect">;

interface Pending {
  question: Question;
  /** Still waiting on these clients; the question is withdrawn when none are left. */
  askedOf: Set<ClientId>;
  settle(outcome: { answer: unknown } | { withdrawn: string }): void;
}

/** Why a withdrawn question was not answered, as the engine reads it. */
const WHY = {
  stopped: "the turn stopped",
  closing: "Islet is closing",
  gone: "the window it was asked in is gone",
} as const;

export class BridgeQuestions {
  private readonly pending = new Map<string, Pending>();
  private readonly service: Service;

  constructor(service: Service) {
    this.service = service;
    service.onDisconnect((client) => this.forget(client));
  }

  /** A port for one audience (`address` is read at each question: a conversation's id may come later). */
  port(address: () => Address): QuestionPort {
    return {
      ask: <K extends QuestionKind>(question: QuestionOf<K>, signal?: AbortSignal) =>
        this.ask(address(), question, signal),
    };
  }

  ask<K extends QuestionKind>(
    address: Address,
    question: QuestionOf<K>,
    signal?: AbortSignal,
  ): Promise<AnswerFor<K>> {
    if (signal?.aborted) return Promise.reject(new Error(`withdrawn: ${WHY.stopped}`));
    const askedOf = new Set(this.service.recipients(address));
    if (askedOf.size === 0)
      return Promise.reject(new Error("no window of Islet is open to answer it"));
    const id = `q-${crypto.randomUUID()}`;
    return new Promise<AnswerFor<K>>((resolve, reject) => {
      const onAbort = () => this.withdraw(id, "stopped");
      this.pending.set(id, {
        question,
        askedOf,
        settle: (outcome) => {
          signal?.removeEventListener("abort", onAbort);
          if ("answer" in outcome) resolve(outcome.answer as AnswerFor<K>);
          else reject(new Error(`withdrawn: ${outcome.withdrawn}`));
        },
      });
      signal?.addEventListener("abort", onAbort, { once: true });
      const conversationId = address.to === "conversation" ? address.conversation : null;
      for (const client of askedOf)
        this.service.emit(toClient(client), "question/asked", { id, conversationId, question });
    });
  }

  /** `question/answer` from `client`; refused unless the question is open and was asked of it. */
  answer(client: ClientId, { id, kind, answer }: QuestionAnswer): void {
    const pending = this.pending.get(id);
    if (!pending || !pending.askedOf.has(client))
      throw new ProblemError({
        source: "question/answer",
        title: pending
          ? `question ${id} was not asked of this window`
          : `question ${id} is not open`,
        cause: pending ? undefined : "it was answered, withdrawn, or never asked",
      });
    if (pending.question.kind !== kind)
      throw new ProblemError({
        source: "question/answer",
        title: `question ${id} is of kind "${pending.question.kind}", not "${kind}"`,
      });
    this.pending.delete(id);
    for (const other of pending.askedOf)
      if (other !== client)
        this.service.emit(toClient(other), "question/withdrawn", { id, reason: "answered" });
    pending.settle({ answer });
  }

  /** Every open question withdrawn (the host is closing). */
  withdrawAll(): void {
    for (const id of [...this.pending.keys()]) this.withdraw(id, "closing");
  }

  private withdraw(id: string, reason: "stopped" | "closing"): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.pending.delete(id);
    for (const client of pending.askedOf)
      this.service.emit(toClient(client), "question/withdrawn", { id, reason });
    pending.settle({ withdrawn: WHY[reason] });
  }

  /** A client is gone: it is no longer waited on; a question nobody is left to answer is withdrawn. */
  private forget(client: ClientId): void {
    for (const [id, pending] of this.pending) {
      if (!pending.askedOf.delete(client) || pending.askedOf.size > 0) continue;
      this.pending.delete(id);
      pending.settle({ withdrawn: WHY.gone });
    }
  }
}
