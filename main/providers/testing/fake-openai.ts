/**
 * A fake OpenAI-compatible server: POST /v1/chat/completions (SSE chunks exactly as OpenAI,
 * llama.cpp and vLLM send them), GET /v1/models, and optionally llama.cpp /props and LM Studio
 * /api/v0/models/{id}.
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

export interface FakeOpenAIOptions {
  /** Model ids for /v1/models, or full entries (e.g. with vLLM's max_model_len). */
  models?: (string | Record<string, unknown>)[];
  /** llama.cpp /props body; absent = 404 like OpenAI. */
  props?: Record<string, unknown>;
  /** LM Studio /api/v0/models/{id} bodies by id. */
  lmstudio?: Record<string, Record<string, unknown>>;
  /** Delta field for thinking: llama.cpp/DeepSeek "reasoning_content", vLLM/OpenRouter "reasoning". */
  reasoningField?: "reasoning_content" | "reasoning";
  /** Omit the final `data: [DONE]` (some servers end after the usage chunk). */
  noDone?: boolean;
  seed?: number;
}

const sse = (data: unknown): WirePiece => `data: ${JSON.stringify(data)}\n\n`;

/** The SSE events of one scripted answer. */
export function encodeOpenAI(
  r: ScriptedResponse,
  model = "fake-model",
  opts: Pick<FakeOpenAIOptions, "reasoningField" | "noDone"> = {},
): WirePiece[] {
  const head = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 1700000000, model };
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    sse({ ...head, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const out: WirePiece[] = [chunk({ role: "assistant", content: "" })];
  const field = opts.reasoningField ?? "reasoning_content";
  for (const t of r.thinking ?? []) out.push(chunk({ [field]: t }));
  for (const t of r.text ?? []) out.push(chunk({ content: t }));
  if (r.fast) for (const t of fastTokens(r.fast)) out.push(chunk({ content: t }));
  (r.toolCalls ?? []).forEach((call, index) => {
    const id = call.id ?? `call_${index}_fake`;
    const parts = fragments(argsJson(call.arguments), call.fragments ?? 3);
    out.push(
      chunk({
        tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }],
      }),
    );
    for (const p of parts) out.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }));
  });
  if (r.streamError) {
    out.push(
      sse({
        error: { message: r.streamError.message, type: r.streamError.type ?? "server_error" },
      }),
    );
    return out;
  }
  if (r.hang || r.truncate) return out;
  const finish = r.stopReason ?? (r.toolCalls?.length ? "tool_calls" : "stop");
  out.push(chunk({}, finish));
  const usage = r.usage ?? { input: 10, output: 5 };
  out.push(
    sse({
      ...head,
      choices: [],
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    }),
  );
  if (!opts.noDone) out.push("data: [DONE]\n\n");
  return out;
}

const DEFAULTS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: "Invalid request.", type: "invalid_request_error", code: null },
  401: {
    message:
      "Incorrect API key provided: sk-fake*****1234. You can find your API key at https://platform.openai.com/account/api-keys.",
    type: "invalid_request_error",
    code: "invalid_api_key",
  },
  404: {
    message: "The model `missing-model` does not exist or you do not have access to it.",
    type: "invalid_request_error",
    code: "model_not_found",
  },
  429: {
    message: "Rate limit reached for requests. Please try again in 20s.",
    type: "requests",
    code: "rate_limit_exceeded",
  },
  500: {
    message: "The server had an error while processing your request.",
    type: "server_error",
    code: null,
  },
};

export function openAIErrorBody(e: ScriptedError): string {
  if (e.body !== undefined) return e.body;
  const d = DEFAULTS[e.status] ?? { message: `HTTP ${e.status}`, type: "server_error", code: null };
  return JSON.stringify({
    error: {
      message: e.message ?? d.message,
      type: e.type ?? d.type,
      param: null,
      code: e.code ?? d.code,
    },
  });
}

async function chat(ex: Exchange, opts: FakeOpenAIOptions): Promise<void> {
  const r = ex.next();
  if (!r)
    return ex.json(
      500,
      openAIErrorBody({ status: 500, message: "fake server: no scripted response left" }),
    );
  if (r.silent) return ex.silence();
  if (r.error) return ex.json(r.error.status, openAIErrorBody(r.error), r.error.headers);
  const model = (ex.req.body as { model?: string } | undefined)?.model ?? "fake-model";
  await ex.stream(
    "text/event-stream",
    encodeOnce(r, "openai", () => encodeOpenAI(r, model, opts)),
    {
      fast: !!r.fast,
      hang: r.hang,
      pauseMs: r.pauseMs,
    },
  );
}

export function startFakeOpenAI(
  script: ScriptedResponse[],
  opts: FakeOpenAIOptions = {},
): Promise<FakeServer> {
  const models = (opts.models ?? ["fake-model"]).map((m) =>
    typeof m === "string" ? { id: m, object: "model", created: 1700000000, owned_by: "fake" } : m,
  );
  return startFakeServer({
    basePath: "/v1",
    chatPath: "/v1/chat/completions",
    script,
    seed: opts.seed,
    routes: {
      "POST /v1/chat/completions": (ex) => chat(ex, opts),
      "GET /v1/models": (ex) => ex.json(200, { object: "list", data: models }),
      "GET /health": (ex) => ex.json(200, { status: "ok" }),
      "GET /props": (ex) =>
        opts.props ? ex.json(200, opts.props) : ex.json(404, { error: "Not Found" }),
      "GET /api/v0/models/*": (ex) => {
        const id = decodeURIComponent(ex.req.path.slice("/api/v0/models/".length));
        const entry = opts.lmstudio?.[id];
        return entry ? ex.json(200, entry) : ex.json(404, { error: `model ${id} not found` });
      },
    },
  });
}
