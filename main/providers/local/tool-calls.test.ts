/**
 * Tool calls from small models: with Islet's text protocol (a ChatML model) and with the model's
 * own function calling (Qwen's template), generation is constrained by a grammar built from the
 * tool's schema, so every call a random-weight model writes parses and validates.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { Ajv } from "ajv";
import { makeMessage, type Message } from "../../core/message.ts";
import type { ChatRequest, StreamEvent, ToolSpec } from "../types.ts";
import type { LoadedInfo, TurnStats } from "./protocol.ts";
import { LocalProvider } from "./provider.ts";
import { LocalRuntime } from "./runtime-process.ts";
import { TEST_RUNTIME, writeTestModels, type ModelsFolder } from "./testing/models.ts";

const TOOLS: ToolSpec[] = [
  {
    name: "Read",
    description: "Read a file",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", minLength: 1 },
        offset: { type: "integer" },
        limit: { type: "integer" },
      },
      required: ["path"],
      additionalProperties: false,
    },
  },
  {
    name: "Edit",
    description: "Edit files",
    parameters: {
      type: "object",
      properties: {
        mode: { enum: ["replace", "append"] },
        files: { type: "array", items: { type: "string" }, maxItems: 3 },
        options: {
          type: "object",
          properties: { dryRun: { type: "boolean" }, note: { type: ["string", "null"] } },
          required: ["dryRun"],
          additionalProperties: false,
        },
      },
      required: ["mode", "files", "options"],
      additionalProperties: false,
    },
  },
];

describe("local tool calls", () => {
  let models: ModelsFolder;
  let runtime: LocalRuntime;
  let provider: LocalProvider;
  let textProvider: LocalProvider;
  const turns: { stats: TurnStats; info: LoadedInfo }[] = [];
  const validators = new Map(
    TOOLS.map((t) => [t.name, new Ajv({ strict: false }).compile(t.parameters)]),
  );

  before(async () => {
    models = await writeTestModels(["caller", "qwen-caller"]);
    runtime = new LocalRuntime(TEST_RUNTIME);
    const onStats = (stats: TurnStats, info: LoadedInfo) => turns.push({ stats, info });
    provider = new LocalProvider({ modelsDir: models.dir, runtime, onStats });
    textProvider = new LocalProvider({
      modelsDir: models.dir,
      runtime,
      toolSyntax: "text",
      onStats,
    });
  });
  after(async () => {
    await runtime.unload();
    await models.remove();
  });

  function request(model: string, messages: Message[], extra: Partial<ChatRequest> = {}) {
    return { model, system: "You use tools.", messages, tools: TOOLS, maxTokens: 300, ...extra };
  }

  async function collect(p: LocalProvider, req: ChatRequest): Promise<StreamEvent[]> {
    const out: StreamEvent[] = [];
    for await (const ev of p.chat(req)) out.push(ev);
    return out;
  }

  /** Runs `runs` calls at different temperatures; every tool call must validate. */
  async function everyCallValidates(p: LocalProvider, model: string, runs: number) {
    let calls = 0;
    for (let i = 0; i < runs; i++) {
      const events = await collect(
        p,
        request(model, [makeMessage("user", `Task ${i}: use a tool`)], {
          temperature: 0.4 + i * 0.2,
        }),
      );
      for (const ev of events) {
        if (ev.type !== "tool_call") continue;
        calls++;
        assert.equal(ev.error, undefined, `call ${calls} parses`);
        const validate = validators.get(ev.call.name);
        assert.ok(validate, `a known tool: ${ev.call.name}`);
        assert.ok(
          validate(ev.call.arguments),
          `${ev.call.name} ${JSON.stringify(ev.call.arguments)}: ${JSON.stringify(validate.errors)}`,
        );
      }
      assert.deepEqual(events.at(-1), { type: "done", stopReason: "tool_calls" });
    }
    assert.ok(calls >= runs, `${calls} calls in ${runs} answers`);
    return turns.at(-1)!.info;
  }

  it("text protocol: a model without tools in its template writes calls that always validate", async () => {
    const info = await everyCallValidates(provider, "caller", 6);
    assert.equal(info.chatWrapper, "ChatML");
    assert.equal(info.toolSyntax, "text");
  });

  it("the model's own function calling (Qwen's template): calls always validate too", async () => {
    const info = await everyCallValidates(provider, "qwen-caller", 4);
    assert.equal(info.toolSyntax, "native");
  });

  it("tools: text in providers.yaml uses the text protocol even where the template has tools", async () => {
    const info = await everyCallValidates(textProvider, "qwen-caller", 2);
    assert.equal(info.toolSyntax, "text");
  });

  it("after the tool results, the next step reuses the cache (the call is rendered as written)", async () => {
    const history: Message[] = [makeMessage("user", "Read a file")];
    const first = await collect(provider, request("caller", history, { temperature: 0 }));
    const one = turns.at(-1)!.stats;
    const calls = first.flatMap((e) => (e.type === "tool_call" ? [e.call] : []));
    assert.ok(calls.length > 0);
    history.push(makeMessage("assistant", "", { toolCalls: calls }));
    for (const c of calls) {
      history.push(makeMessage("tool", "the file's text", { toolCallId: c.id, toolName: c.name }));
    }
    await collect(provider, request("caller", history, { temperature: 0 }));
    const two = turns.at(-1)!.stats;
    assert.ok(
      two.evaluatedTokens < two.promptTokens - one.promptTokens + 5,
      `step 2 evaluated ${two.evaluatedTokens} of ${two.promptTokens} tokens (step 1's prompt: ${one.promptTokens})`,
    );
  });
});
