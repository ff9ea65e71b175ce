/**
 * A fake Anthropic Messages API: POST /v1/messages (the real event sequence: message_start,
 * content_block_start/delta/stop for thinking, text and tool_use, message_delta, message_stop,
 * pings, error events) and GET /v1/models.
 */
import { startFakeServer, type Exchange, type FakeServer } from "./fake-server.ts";
import {
  argsJson,
  fastTokens,
  fragments,
  type ScriptedError,
  type ScriptedResponse,
  type WirePiece,
  encodeOnce,
} from "./script.ts";

export interface FakeAnthropicOptions {
  models?: string[];
  seed?: number;
}

const event = (type: string, data: Record<string, unknown>): WirePiece =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The SSE events of one scripted answer. */
export function encodeAnthropic(r: ScriptedResponse, model = "claude-fake"): WirePiece[] {
  const usage = r.usage ?? { input: 10, output: 5 };
  const out: WirePiece[] = [
    event("message_start", {
      message: {
        id: "msg_fake",
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage.input,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
          output_tokens: 1,
        },
      },
    }),
    event("ping", {}),
  ];
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Record<string, unknown>[]) => {
    out.push(event("content_block_start", { index, content_block: start }));
    for (const delta of deltas) out.push(event("content_block_delta", { index, delta }));
    out.push(event("content_block_stop", { index }));
    index++;
  };
  if (r.thinking) {
    block({ type: "thinking", thinking: "", signature: "" }, [
      ...r.thinking.map((t) => ({ type: "thinking_delta", thinking: t })),
      { type: "signature_delta", signature: r.signature ?? "sig-fake-0123456789" },
    ]);
  }
  const texts = [...(r.text ?? []), ...(r.fast ? fastTokens(r.fast) : [])];
  if (texts.length > 0)
    block(
      { type: "text", text: "" },
      texts.map((text) => ({ type: "text_delta", text })),
    );
  (r.toolCalls ?? []).forEach((call, i) => {
    const parts = fragments(argsJson(call.arguments), call.fragments ?? 3);
    block(
      { type: "tool_use", id: call.id ?? `toolu_fake_${i}`, name: call.name, input: {} },
      parts.map((partial_json) => ({ type: "input_json_delta", partial_json })),
    );
  });
  if (r.streamError) {
    out.push(
      event("error", {
        error: { type: r.streamError.type ?? "overloaded_error", message: r.streamError.message },
      }),
    );
    return out;
  }
  if (r.hang || r.truncate) return out;
  const stop = r.stopReason ?? (r.toolCalls?.length ? "tool_use" : "end_turn");
  out.push(
    event("message_delta", {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: usage.output },
    }),
  );
  out.push(event("message_stop", {}));
  return out;
}

const DEFAULTS: Record<number, { type: string; message: string }> = {
  400: { type: "invalid_request_error", message: "Invalid request" },
  401: { type: "authentication_error", message: "invalid x-api-key" },
  403: {
    type: "permission_error",
    message: "Your API key does not have permission to use the specified resource.",
  },
  404: { type: "not_found_error", message: "model: claude-missing" },
  413: {
    type: "request_too_large",
    message: "Request exceeds the maximum allowed number of bytes.",
  },
  429: {
    type: "rate_limit_error",
    message: "Number of request tokens has exceeded your per-minute rate limit",
  },
  500: { type: "api_error", message: "Internal server error" },
  529: { type: "overloaded_error", message: "Overloaded" },
};

export function anthropicErrorBody(e: ScriptedError): string {
  if (e.body !== undefined) return e.body;
  const d = DEFAULTS[e.status] ?? { type: "api_error", message: `HTTP ${e.status}` };
  return JSON.stringify({
    type: "error",
    error: { type: e.type ?? d.type, message: e.message ?? d.message },
  });
}

async function messages(ex: Exchange): Promise<void> {
  const r = ex.next();
  if (!r)
    return ex.json(
      500,
      anthropicErrorBody({ status: 500, message: "fake server: no scripted response left" }),
    );
  if (r.silent) return ex.silence();
  if (r.error) return ex.json(r.error.status, anthropicErrorBody(r.error), r.error.headers);
  const model = (ex.req.body as { model?: string } | undefined)?.model;
  await ex.stream(
    "text/event-stream",
    encodeOnce(r, "anthropic", () => encodeAnthropic(r, model)),
    { fast: !!r.fast, hang: r.hang, pauseMs: r.pauseMs },
  );
}

export function startFakeAnthropic(
  script: ScriptedResponse[],
  opts: FakeAnthropicOptions = {},
): Promise<FakeServer> {
  const models = opts.models ?? ["claude-fake"];
  return startFakeServer({
    basePath: "",
    chatPath: "/v1/messages",
    script,
    seed: opts.seed,
    routes: {
      "POST /v1/messages": messages,
      "GET /v1/models": (ex) =>
        ex.json(200, {
          data: models.map((id) => ({
            type: "model",
            id,
            display_name: id,
            created_at: "2025-01-01T00:00:00Z",
          })),
          has_more: false,
          first_id: models[0] ?? null,
          last_id: models.at(-1) ?? null,
        }),
    },
  });
}
