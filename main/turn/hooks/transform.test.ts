import assert from "node:assert/strict";
import { test } from "node:test";
import type { Context, Message as SdkMessage } from "../../../plugins/sdk/index.ts";
import { makeMessage } from "../../core/message.ts";
import { newStats } from "../stats.ts";
import { runTransform, toSdkMessages, validateTransformed } from "./transform.ts";
import type { HookHandler } from "./types.ts";

const base = { stats: newStats(), pluginConfig: {} } as unknown as Omit<Context, "messages">;

function transformer(
  source: string,
  fn: (msgs: SdkMessage[]) => SdkMessage[] | unknown,
): HookHandler<"transformMessages"> {
  return {
    source,
    timing: "transformMessages",
    async invoke(ctx) {
      return { status: "ok", result: fn(ctx.messages) as SdkMessage[] };
    },
  };
}

const history = [
  makeMessage("user", "read a"),
  makeMessage("assistant", "", {
    thinking: "hmm",
    thinkingSignature: "sig-1",
    toolCalls: [{ id: "call_1", name: "Read", arguments: { path: "a" } }],
  }),
  makeMessage("tool", "x".repeat(2000), { toolCallId: "call_1", toolName: "Read" }),
  makeMessage("user", "thanks"),
];

test("plugins see positional ids with the system prompt first", () => {
  const { sdk } = toSdkMessages("SYS", history);
  assert.deepEqual(
    sdk.map((m) => [m.id, m.role]),
    [
      ["m0001", "system"],
      ["m0002", "user"],
      ["m0003", "assistant"],
      ["m0004", "tool"],
      ["m0005", "user"],
    ],
  );
  assert.equal(sdk[2].toolCalls[0].id, "call_1");
});

test("transforms chain, merge back by id and keep hidden fields", async () => {
  const out = await runTransform(
    [
      transformer("a-shrink", (msgs) =>
        msgs.map((m) => (m.role === "tool" ? { ...m, content: "[summarised]" } : m)),
      ),
      transformer("b-note", (msgs) => [
        ...msgs,
        { ...msgs[1], id: "new", role: "user", content: "note" },
      ]),
    ],
    base,
    "SYS",
    history,
  );
  assert.equal(out.messages.length, 5);
  assert.equal(out.messages[2].content, "[summarised]");
  assert.equal(out.messages[1].thinkingSignature, "sig-1", "signature survives the round trip");
  assert.equal(out.messages[1].id, history[1].id);
  assert.equal(out.messages[4].content, "note");
  assert.equal(out.messages[4].kind, "synthetic");
  assert.equal(history[2].content.length, 2000, "history itself is untouched");
});

test("an invalid result is dropped with a notice and the previous array kept", async () => {
  const out = await runTransform(
    [
      transformer("drop-system", (msgs) => msgs.slice(1)),
      transformer("orphan", (msgs) => msgs.filter((m) => m.role !== "assistant")),
      transformer("empty", () => []),
      transformer("garbage", () => "nope"),
    ],
    base,
    "SYS",
    history,
  );
  assert.equal(out.messages, history);
  assert.equal(out.system, "SYS");
  assert.deepEqual(
    out.notices.map((n) => n.text),
    [
      "drop-system: transformMessages ignored: message 0 must be the system prompt",
      "orphan: transformMessages ignored: message 2 is a tool result without a preceding call (call_1)",
      "empty: transformMessages ignored: result is empty",
      "garbage: transformMessages ignored: result is not an array of messages",
    ],
  );
});

test("validateTransformed accepts the untouched array", () => {
  assert.equal(validateTransformed(toSdkMessages("S", history).sdk), undefined);
});
