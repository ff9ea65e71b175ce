/** The model picker's empty state: nothing answered, and how to start a local server. */
import type { CallResponse } from "../../../main/bridge/contract.ts";

type ModelServer = CallResponse<"models/list">["servers"][number];
import { AlertIcon } from "../ui/icons.tsx";

export function NoModels({
  servers,
  onRetry,
  checking,
}: {
  servers: ModelServer[];
  onRetry(): void;
  checking: boolean;
}) {
  const failed = servers.filter((s) => s.error);
  return (
    <div className="no-models" role="status">
      <p className="no-models-title">
        <AlertIcon /> No model available
      </p>
      <p>Start a local model server, then look again:</p>
      <ul>
        <li>
          Ollama: <code>ollama serve</code> and <code>ollama pull qwen3:8b</code>
        </li>
        <li>LM Studio: load a model and start the server (Developer tab)</li>
        <li>
          llama.cpp: <code>llama-server -m model.gguf</code>
        </li>
      </ul>
      <p>Or add a provider with its API key in Settings → Providers.</p>
      {failed.map((s) => (
        <p key={s.provider} className="no-models-failed">
          {s.label}: {s.error}
        </p>
      ))}
      <button type="button" className="button button-small" onClick={onRetry} disabled={checking}>
        {checking ? "Looking…" : "Look again"}
      </button>
    </div>
  );
}
