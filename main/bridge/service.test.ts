import assert from "node:assert/strict";
import { test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ProblemError } from "../host/problem.ts";
import { BridgeError, CallCancelled, type ChatOutcome, type PluginList } from "./contract.ts";
import {
  BridgeService,
  EVERYONE,
  toClient,
  toConversation,
  type BridgeHandlers,
} from "./service.ts";
import { CALL_NAMES, STREAM_NAMES } from "./names.ts";
import { recordingClient } from "./testing.ts";

const emptyList: PluginList = { backend: null, plugins: [], problems: [] };
const done: ChatOutcome = { status: "done", text: "ok", command: null, error: null };
const unused = () => {
  throw new Error("not used in this test");
};

function service(overrides: Partial<BridgeHandlers> = {}, log: string[] = []): BridgeService {
  const s = new BridgeService({ log: (line) => log.push(line) });
  s.handle({
    // Every call and stream answers "not used" unless given below (new calls need no edit here).
    ...(Object.fromEntries(
      [...CALL_NAMES, ...STREAM_NAMES].map((name) => [name, unused]),
    ) as unknown as BridgeHandlers),
    "app/info": () => ({
      name: "Islet",
      version: "1",
      host: "browser",
      versions: { node: "24", electron: null, chrome: null },
      platform: "linux-x64",
      workdir: "/w",
      home: "/h",
    }),
    "plugins/list": () => emptyList,
    "plugins/reload": () => ({ reports: [] }),
    "plugins/restart": ({ name }) => ({ name, ok: true, ms: 1 }),
    "question/answer": unused,
    "chat/open": unused,
    "chat/stop": unused,
    "chat/history": unused,
    "chat/send": unused,
    "commands/list": unused,
    ...overrides,
  });
  return s;
}

test("a valid call returns the handler's validated response", async () => {
  const client = service().connect({ deliver() {} });
  assert.deepEqual(await client.call("plugins/list", undefined), emptyList);
});

test("unknown names and bad payloads are refused with a problem naming the call", async () => {
  const client = service().connect({ deliver() {} });
  await assert.rejects(client.call("fs/delete", undefined), {
    name: "BridgeError",
    message: 'bridge: unknown call "fs/delete"',
  });
  await assert.rejects(client.call(42, undefined), /unknown call 42/);
  await assert.rejects(client.call("chat/send", {}), /it is a streamed call/);
  await assert.rejects(
    client.stream("plugins/list", undefined, () => {}),
    /it is a plain call/,
  );
  const bad = await client.call("plugins/list", { all: true }).catch((e: BridgeError) => e);
  assert.ok(bad instanceof BridgeError);
  assert.equal(bad.problem.source, "plugins/list");
  assert.equal(bad.problem.title, "invalid payload");
  assert.match(bad.message, /^plugins\/list: invalid payload \(.+\)$/);
});

test("a failing handler reaches the caller as a problem, without a stack; a ProblemError whole", async () => {
  const client = service({
    "plugins/reload": () => {
      throw new Error("plugins are off");
    },
    "plugins/restart": () => {
      throw new ProblemError({ source: "plugins", title: "no such plugin", suggestion: "check" });
    },
  }).connect({ deliver() {} });
  await assert.rejects(client.call("plugins/reload", undefined), {
    name: "BridgeError",
    message: "plugins/reload: plugins are off",
    problem: { source: "plugins/reload", title: "plugins are off" },
  });
  await assert.rejects(client.call("plugins/restart", { name: "x" }), {
    problem: { source: "plugins", title: "no such plugin", suggestion: "check" },
  });
});

test("a response that breaks the contract is logged and never crosses", async () => {
  const log: string[] = [];
  const s = service({ "plugins/list": () => ({ ...emptyList, secret: "sk-123" }) as never }, log);
  const client = s.connect({ deliver() {} });
  await assert.rejects(
    client.call("plugins/list", undefined),
    /internal error \(invalid response\)/,
  );
  assert.equal(log.length, 1);
  assert.match(log[0], /plugins\/list produced an invalid response/);
});

test("a stream sends its chunks in order, drops invalid ones, then its result", async () => {
  const log: string[] = [];
  const s = service(
    {
      "chat/send": async ({ text }, { chunk }) => {
        chunk({ type: "assistant_delta", text: "Hel" });
        chunk({ type: "assistant_delta", text: 5 } as never);
        chunk({ type: "assistant_delta", text: "lo" });
        return { ...done, text };
      },
    },
    log,
  );
  const chunks: unknown[] = [];
  const client = s.connect({ deliver() {} });
  const result = await client.stream("chat/send", { conversationId: "c", text: "Hello" }, (c) =>
    chunks.push(c),
  );
  assert.deepEqual(chunks, [
    { type: "assistant_delta", text: "Hel" },
    { type: "assistant_delta", text: "lo" },
  ]);
  assert.deepEqual(result, { ...done, text: "Hello" });
  assert.equal(log.filter((l) => /chat\/send chunk dropped/.test(l)).length, 1);
});

/** A stream handler that runs until its signal aborts, then records that it stopped. */
function endless(stopped: string[]): Partial<BridgeHandlers> {
  return {
    "chat/send": ({ conversationId }, { signal, chunk }) =>
      new Promise((resolve) => {
        const timer = setInterval(() => chunk({ type: "assistant_delta", text: "." }), 5);
        signal.addEventListener("abort", () => {
          clearInterval(timer);
          stopped.push(conversationId);
          // A late chunk after the cancel never reaches the caller.
          chunk({ type: "assistant_delta", text: "late" });
          resolve(done);
        });
      }),
  };
}

test("cancelling a stream aborts the handler's signal, and the call ends as cancelled", async () => {
  const stopped: string[] = [];
  const client = service(endless(stopped)).connect({ deliver() {} });
  const cancel = new AbortController();
  const chunks: unknown[] = [];
  const call = client.stream(
    "chat/send",
    { conversationId: "a", text: "go" },
    (c) => {
      chunks.push(c);
      if (chunks.length === 2) cancel.abort();
    },
    cancel.signal,
  );
  await assert.rejects(call, (err) => err instanceof CallCancelled && err.name === "AbortError");
  assert.deepEqual(stopped, ["a"]);
  assert.equal(chunks.length, 2, "no chunk after the cancel");
});

test("a client that disconnects cancels its streams, not another client's", async () => {
  const stopped: string[] = [];
  const s = service(endless(stopped));
  const leaving = s.connect({ deliver() {} });
  const staying = s.connect({ deliver() {} });
  const first = leaving.stream("chat/send", { conversationId: "a", text: "x" }, () => {});
  const second = staying.stream("chat/send", { conversationId: "b", text: "x" }, () => {});
  const disconnected: string[] = [];
  s.onDisconnect((id) => disconnected.push(id));
  await sleep(20);
  leaving.close();
  await assert.rejects(first, CallCancelled);
  assert.deepEqual(stopped, ["a"]);
  assert.deepEqual(disconnected, [leaving.id]);
  const cancel = new AbortController();
  const third = staying.stream(
    "chat/send",
    { conversationId: "c", text: "x" },
    () => {},
    cancel.signal,
  );
  cancel.abort();
  await assert.rejects(third, CallCancelled);
  staying.close();
  await assert.rejects(second, CallCancelled);
  assert.deepEqual(stopped, ["a", "c", "b"]);
});

test("events go to their address: everyone, one client, or a conversation's clients", () => {
  const log: string[] = [];
  const s = service({}, log);
  const [a, b, c] = [recordingClient(s), recordingClient(s), recordingClient(s)];
  s.join(a.id, "conv-1");
  s.join(b.id, "conv-2");
  s.join(c.id, "conv-2");
  const warning = (title: string) => ({ source: "test", title });
  s.emit(EVERYONE, "engine/warning", warning("all"));
  s.emit(toClient(b.id), "engine/warning", warning("b only"));
  s.emit(toConversation("conv-1"), "engine/warning", warning("conv-1"));
  s.emit(toConversation("conv-2"), "engine/warning", warning("conv-2"));
  s.emit(toConversation("nobody"), "engine/warning", warning("lost"));
  s.emit(EVERYONE, "engine/warning", { text: 3 } as never);
  const titles = (client: typeof a) =>
    client.of("engine/warning").map((p) => (p as { title: string }).title);
  assert.deepEqual(titles(a), ["all", "conv-1"]);
  assert.deepEqual(titles(b), ["all", "b only", "conv-2"]);
  assert.deepEqual(titles(c), ["all", "conv-2"]);
  assert.equal(log.filter((l) => l.includes("dropped")).length, 1);

  c.close();
  s.emit(toConversation("conv-2"), "engine/warning", warning("after c left"));
  assert.deepEqual(titles(c), ["all", "conv-2"]);
  assert.deepEqual(titles(b).at(-1), "after c left");
  assert.deepEqual(s.recipients(toConversation("conv-2")), [b.id]);
});

test("a transport that throws does not stop the others", () => {
  const log: string[] = [];
  const s = service({}, log);
  s.connect({
    deliver() {
      throw new Error("a transport broke");
    },
  });
  const ok = recordingClient(s);
  s.emit(EVERYONE, "engine/warning", { source: "t", title: "x" });
  assert.equal(ok.of("engine/warning").length, 1);
  assert.equal(log.filter((l) => l.includes("a transport failed")).length, 1);
});

test("calls before the handlers are in place say the engine is starting", async () => {
  const client = new BridgeService({ log: () => {} }).connect({ deliver() {} });
  await assert.rejects(client.call("app/info", undefined), /Islet is still starting; try again/);
});
