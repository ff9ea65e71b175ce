/** The engine's questions through a real BridgeService: who is asked, who may answer, withdrawal. */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { QuestionOf } from "../host/questions.ts";
import type { QuestionAsked } from "./contract.ts";
import { questionHandlers } from "./handlers/questions.ts";
import { BridgeQuestions } from "./questions.ts";
import { BridgeService, EVERYONE, toConversation, type BridgeHandlers } from "./service.ts";
import { recordingClient } from "./testing.ts";

const write: QuestionOf<"approval"> = {
  kind: "approval",
  tool: "Write",
  arguments: { path: "a.txt" },
  workdir: "/w",
};
const trust: QuestionOf<"workspace-trust"> = {
  kind: "workspace-trust",
  folder: "/w",
  heldBack: ["unsafe mode"],
};

function setup() {
  const service = new BridgeService({ log: () => {} });
  const questions = new BridgeQuestions(service);
  service.handle(questionHandlers(questions) as BridgeHandlers);
  return { service, questions };
}

test("a conversation's question goes to its clients only; the answer reaches the engine", async () => {
  const { service, questions } = setup();
  const [owner, other] = [recordingClient(service), recordingClient(service)];
  service.join(owner.id, "conv-a");
  service.join(other.id, "conv-b");
  const answered = questions.ask(toConversation("conv-a"), write);
  const asked = (await owner.next("question/asked")) as QuestionAsked;
  assert.equal(asked.conversationId, "conv-a");
  assert.deepEqual(asked.question, write);
  assert.deepEqual(other.events, [], "the other conversation's client hears nothing");

  // The other client cannot answer it, nor can anyone answer with another kind's answer.
  await assert.rejects(
    other.call("question/answer", { id: asked.id, kind: "approval", answer: "allow" }),
    /question q-.* was not asked of this window/,
  );
  await assert.rejects(
    owner.call("question/answer", { id: asked.id, kind: "approval", answer: "grant" }),
    /question\/answer: invalid payload/,
  );
  await assert.rejects(
    owner.call("question/answer", { id: asked.id, kind: "permissions", answer: "grant" }),
    /is of kind "approval", not "permissions"/,
  );
  await owner.call("question/answer", { id: asked.id, kind: "approval", answer: "always" });
  assert.equal(await answered, "always");
  await assert.rejects(
    owner.call("question/answer", { id: asked.id, kind: "approval", answer: "deny" }),
    /question q-.* is not open \(it was answered, withdrawn, or never asked\)/,
  );
  await assert.rejects(
    owner.call("question/answer", { id: "q-made-up", kind: "approval", answer: "deny" }),
    /is not open/,
  );
});

test("an engine-level question goes to every client: the first answer wins, the others are told", async () => {
  const { service, questions } = setup();
  const [a, b, c] = [recordingClient(service), recordingClient(service), recordingClient(service)];
  const answered = questions.port(() => EVERYONE).ask(trust);
  const asked = (await b.next("question/asked")) as QuestionAsked;
  assert.equal(asked.conversationId, null);
  assert.equal(a.of("question/asked").length, 1);
  await b.call("question/answer", { id: asked.id, kind: "workspace-trust", answer: "once" });
  assert.equal(await answered, "once");
  assert.deepEqual(a.of("question/withdrawn"), [{ id: asked.id, reason: "answered" }]);
  assert.deepEqual(c.of("question/withdrawn"), [{ id: asked.id, reason: "answered" }]);
  assert.deepEqual(b.of("question/withdrawn"), []);
  await assert.rejects(
    c.call("question/answer", { id: asked.id, kind: "workspace-trust", answer: "trust" }),
    /is not open/,
  );
});

test("a question is withdrawn when its turn stops, and the engine hears why", async () => {
  const { service, questions } = setup();
  const owner = recordingClient(service);
  service.join(owner.id, "conv");
  const stop = new AbortController();
  const answered = questions.ask(toConversation("conv"), write, stop.signal);
  const asked = (await owner.next("question/asked")) as QuestionAsked;
  stop.abort();
  await assert.rejects(answered, /withdrawn: the turn stopped/);
  assert.deepEqual(owner.of("question/withdrawn"), [{ id: asked.id, reason: "stopped" }]);
  await assert.rejects(
    owner.call("question/answer", { id: asked.id, kind: "approval", answer: "allow" }),
    /is not open/,
  );
  await assert.rejects(
    questions.ask(toConversation("conv"), write, stop.signal),
    /withdrawn: the turn stopped/,
    "a stopped turn asks nothing",
  );
  assert.equal(owner.of("question/asked").length, 1);
});

test("a question is withdrawn once every client it was asked of has gone", async () => {
  const { service, questions } = setup();
  const [a, b] = [recordingClient(service), recordingClient(service)];
  const answered = questions.ask(EVERYONE, trust);
  const asked = (await a.next("question/asked")) as QuestionAsked;
  a.close();
  b.close();
  await assert.rejects(answered, /withdrawn: the window it was asked in is gone/);
  assert.equal(asked.question.kind, "workspace-trust");
});

test("with nobody connected a question fails at once (the engine takes the safe default)", async () => {
  const { questions } = setup();
  await assert.rejects(questions.ask(EVERYONE, trust), /no window of Islet is open to answer it/);
});

test("closing withdraws every open question", async () => {
  const { service, questions } = setup();
  const a = recordingClient(service);
  const answered = questions.ask(EVERYONE, trust);
  const asked = (await a.next("question/asked")) as QuestionAsked;
  questions.withdrawAll();
  await assert.rejects(answered, /withdrawn: Islet is closing/);
  assert.deepEqual(a.of("question/withdrawn"), [{ id: asked.id, reason: "closing" }]);
});
