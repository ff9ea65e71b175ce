/** A local runtime failure as the one line a user reads: what happened, and what to do. */
import { ProviderError } from "../types.ts";
import type { RuntimeFailure } from "./runtime-failure.ts";

export interface LocalErrorContext {
  /** The configured provider name ("local"). */
  provider: string;
  model: string;
  file: string;
}

const AGAIN = "send the message again to start it fresh";

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(ms < 10_000 ? 1 : 0))} s`;
}

export function localError(f: RuntimeFailure, ctx: LocalErrorContext): ProviderError {
  const p = ctx.provider;
  const make = (line: string, type: ProviderError["errorType"] = "") =>
    new ProviderError(line, type, 0, undefined, { cause: f, timeout: f.timeout });
  switch (f.kind) {
    case "crash":
      return make(`${p}: the model runtime stopped while answering: ${f.message} — ${AGAIN}`);
    case "hang":
      return make(`${p}: the model runtime hung (${f.message}) and was stopped — ${AGAIN}`);
    case "protocol":
      return make(`${p}: the model runtime misbehaved (${f.message}) and was stopped — ${AGAIN}`);
    case "start":
      return make(`${p}: the model runtime did not start: ${f.message} — ${AGAIN}`);
    case "unloaded":
      return make(`${p}: the model runtime was unloaded during the answer — ${AGAIN}`);
    case "first_token":
      return make(
        `${p}: no first token from ${ctx.model} after ${seconds(f.limitMs ?? 0)} (first_token timeout); the runtime was stopped — raise providers.${p}.timeouts.first_token in providers.yaml if the model needs longer`,
      );
    case "idle":
      return make(
        `${p}: the answer from ${ctx.model} stalled for ${seconds(f.limitMs ?? 0)} (idle timeout); the runtime was stopped — raise providers.${p}.timeouts.idle in providers.yaml if the model pauses longer`,
      );
    case "memory":
      return make(
        `${p}: not enough memory for ${ctx.model}: ${f.message} — pick a smaller model, or set a smaller context_length for ${p} in providers.yaml`,
      );
    case "model":
      return make(
        `${p}: cannot load ${ctx.file}: ${f.message} — the file may be damaged or not a GGUF model; download it again`,
        "model_unavailable",
      );
    case "context":
      return make(
        `${p}: the conversation does not fit ${ctx.model}'s context window (${f.message}) — compact the conversation or start a new one`,
        "context_exhausted",
      );
    case "binary":
      return make(
        `${p}: llama.cpp cannot run on this machine (${f.message}) — use a local server such as Ollama or LM Studio instead`,
      );
    case "internal":
      return make(`${p}: the model runtime failed: ${f.message}`);
  }
}
