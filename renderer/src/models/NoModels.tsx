/**
 * The model picker's empty state: a compact "No model" button in its place, opening a note that
 * offers the built-in model that fits this machine (Download), or how to start a local server
 * (and why configured providers did not answer).
 */
import { useEffect, useId, useRef, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { AlertIcon } from "../ui/icons.tsx";
import { ChevronIcon } from "../ui/more-icons.tsx";
import { RecommendedModel } from "./RecommendedModel.tsx";

type ModelServer = CallResponse<"models/list">["servers"][number];

export function NoModels({
  servers,
  onRetry,
  checking,
}: {
  servers: ModelServer[];
  onRetry(): void;
  checking: boolean;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const failed = servers.filter((s) => s.error);

  useEffect(() => {
    if (!open) return;
    const away = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", away);
    return () => document.removeEventListener("pointerdown", away);
  }, [open]);

  return (
    <div
      className="picker"
      ref={box}
      onKeyDown={(e) => {
        if (e.key === "Escape") setOpen(false);
      }}
    >
      <button
        type="button"
        className="picker-field no-models-button"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
      >
        <AlertIcon />
        <span>No model available</span>
        <ChevronIcon />
      </button>
      {open ? (
        <div id={id} className="no-models" role="region" aria-label="How to get a model">
          <RecommendedModel compact />
          <p className="no-models-title">Or start a local model server, then look again</p>
          <ul>
            <li>
              Ollama: <code>ollama serve</code>, then <code>ollama pull qwen3:8b</code>
            </li>
            <li>LM Studio: load a model and start the server (Developer tab)</li>
            <li>
              llama.cpp: <code>llama-server -m model.gguf</code>
            </li>
          </ul>
          <p>Or add a cloud provider with its API key in Settings → Providers.</p>
          {failed.map((s) => (
            <p key={s.provider} className="no-models-failed">
              {s.label}: {s.error}
            </p>
          ))}
          <button
            type="button"
            className="button button-small"
            onClick={onRetry}
            disabled={checking}
          >
            {checking ? "Looking…" : "Look again"}
          </button>
        </div>
      ) : null}
    </div>
  );
}
