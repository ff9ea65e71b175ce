/**
 * A fake Ollama: POST /api/chat (NDJSON exactly as Ollama streams it: thinking and content
 * deltas, whole tool calls with object arguments, a final done line with counts), GET /api/tags,
 * POST /api/show, GET /api/version. Errors are `{"error":"..."}` bodies.
 */
import { startFakeServer, type Exchange, type FakeServer } from "./fake-server.ts";
import {
  encodeOnce,
  fastTokens,
  type ScriptedError,
  type ScriptedResponse,
  type WirePiece,
} from "./script.ts";

export interface FakeOllamaModel {
  name: string;
  size?: number;
  family?: string;
  parameterSize?: string;
  parameterCount?: number;
  contextLength?: number;
  /** The `parameters` text of /api/show, e.g. "num_ctx 8192". */
  parameters?: string;
  capabilities?: string[];
}

export interface FakeOllamaOptions {
  models?: FakeOllamaModel[];
  seed?: number;
}

const line = (v: unknown): WirePiece => `${JSON.stringify(v)}\n`;

/** The NDJSON lines of one scripted answer. */
export function encodeOllama(r: ScriptedResponse, model = "fake:latest"): WirePiece[] {
  const created_at = "2026-01-01T00:00:00.000000Z";
  const msg = (m: Record<string, unknown>) =>
    line({ model, created_at, message: { role: "assistant", content: "", ...m }, done: false });
  const out: WirePiece[] = [];
  for (const t of r.thinking ?? []) out.push(msg({ thinking: t }));
  for (const t of r.text ?? []) out.push(msg({ content: t }));
  if (r.fast) for (const t of fastTokens(r.fast)) out.push(msg({ content: t }));
  if (r.toolCalls?.length) {
    out.push(
      msg({
        tool_calls: r.toolCalls.map((c, index) => ({
          ...(c.id ? { id: c.id } : {}),
          function: {
            index,
            name: c.name,
            arguments: typeof c.arguments === "string" ? c.arguments : c.arguments,
          },
        })),
      }),
    );
  }
  if (r.streamError) {
    out.push(line({ error: r.streamError.message }));
    return out;
  }
  if (r.hang || r.truncate) return out;
  const usage = r.usage ?? { input: 10, output: 5 };
  out.push(
    line({
      model,
      created_at,
      message: { role: "assistant", content: "" },
      done: true,
      done_reason: r.stopReason ?? "stop",
      total_duration: 1000000,
      load_duration: 100000,
      prompt_eval_count: usage.input,
      prompt_eval_duration: 10000,
      eval_count: usage.output,
      eval_duration: 100000,
    }),
  );
  return out;
}

const DEFAULTS: Record<number, string> = {
  400: "invalid request",
  404: 'model "missing" not found, try pulling it first',
  500: "llama runner process has terminated: exit status 2",
};

export function ollamaErrorBody(e: ScriptedError): string {
  return e.body ?? JSON.stringify({ error: e.message ?? DEFAULTS[e.status] ?? `HTTP ${e.status}` });
}

function show(ex: Exchange, models: FakeOllamaModel[]): void {
  const name = (ex.req.body as { model?: string } | undefined)?.model ?? "";
  const m = models.find((x) => x.name === name);
  if (!m) return ex.json(404, { error: `model '${name}' not found` });
  const arch = m.family ?? "llama";
  const modelInfo: Record<string, unknown> = { "general.architecture": arch };
  if (m.parameterCount) modelInfo["general.parameter_count"] = m.parameterCount;
  if (m.contextLength) modelInfo[`${arch}.context_length`] = m.contextLength;
  ex.json(200, {
    modelfile: "# fake",
    parameters: m.parameters ?? 'stop "<|im_end|>"',
    template: "{{ .Prompt }}",
    details: {
      parent_model: "",
      format: "gguf",
      family: arch,
      families: [arch],
      parameter_size: m.parameterSize ?? "8.0B",
      quantization_level: "Q4_K_M",
    },
    model_info: modelInfo,
    capabilities: m.capabilities ?? ["completion", "tools"],
    modified_at: "2026-01-01T00:00:00Z",
  });
}

async function chat(ex: Exchange): Promise<void> {
  const r = ex.next();
  if (!r)
    return ex.json(
      500,
      ollamaErrorBody({ status: 500, message: "fake server: no scripted response left" }),
    );
  if (r.silent) return ex.silence();
  if (r.error) return ex.json(r.error.status, ollamaErrorBody(r.error), r.error.headers);
  const model = (ex.req.body as { model?: string } | undefined)?.model;
  await ex.stream(
    "application/x-ndjson",
    encodeOnce(r, "ollama", () => encodeOllama(r, model)),
    { fast: !!r.fast, hang: r.hang, pauseMs: r.pauseMs },
  );
}

export function startFakeOllama(
  script: ScriptedResponse[],
  opts: FakeOllamaOptions = {},
): Promise<FakeServer> {
  const models = opts.models ?? [{ name: "fake:latest" }];
  return startFakeServer({
    basePath: "",
    chatPath: "/api/chat",
    script,
    seed: opts.seed,
    routes: {
      "POST /api/chat": chat,
      "POST /api/show": (ex) => show(ex, models),
      "GET /api/version": (ex) => ex.json(200, { version: "0.12.0" }),
      "GET /api/tags": (ex) =>
        ex.json(200, {
          models: models.map((m) => ({
            name: m.name,
            model: m.name,
            modified_at: "2026-01-01T00:00:00Z",
            size: m.size ?? 4_900_000_000,
            digest: "0".repeat(64),
            details: {
              family: m.family ?? "llama",
              parameter_size: m.parameterSize ?? "8.0B",
              quantization_level: "Q4_K_M",
            },
          })),
        }),
    },
  });
}
