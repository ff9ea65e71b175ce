/**
 * The model picker: every detected local server and configured provider with its models. In a
 * conversation the choice applies to its next turn; without one it becomes the default for new
 * chats. With nothing running it says how to start a server.
 */
import { useId, useState } from "react";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import { ReloadIcon } from "../ui/icons.tsx";
import { CpuIcon } from "../ui/more-icons.tsx";
import { NoModels } from "./NoModels.tsx";
import { useModels } from "./useModels.ts";
import "../ui/select.css";
import "./pickers.css";

/** An option's value: provider and model (either may hold any character). */
const valueOf = (provider: string, model: string) => JSON.stringify([provider, model]);

export function ModelPicker({ conversationId }: { conversationId: string | null }) {
  const bridge = useBridge();
  const models = useModels(conversationId);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const data = models.data;
  const current = data?.current ? valueOf(data.current.provider, data.current.model) : "";
  const servers = data?.servers ?? [];
  const withModels = servers.filter((s) => s.models.length > 0);

  const choose = async (value: string) => {
    if (!value) return;
    const [provider, model] = JSON.parse(value) as [string, string];
    setBusy(true);
    try {
      await bridge.call("models/select", {
        ...(conversationId ? { conversationId } : {}),
        provider,
        model,
      });
      setFailure(null);
    } catch (err) {
      setFailure(errorMessage(err));
    } finally {
      setBusy(false);
      models.refresh();
    }
  };

  // A model given on the command line (`--provider … --model …`) is in use though no server lists it.
  if (data && withModels.length === 0 && !data.current)
    return <NoModels servers={servers} onRetry={models.refresh} checking={models.loading} />;

  // The current model may not be listed (a server that stopped): keep it visible.
  const listed = withModels.some(
    (s) => s.provider === data?.current?.provider && s.models.includes(data.current.model),
  );

  return (
    <div className="picker">
      {/* A long model name is cut short on screen: the tooltip gives it whole. */}
      <label
        className="picker-field picker-model"
        title={data?.current ? `Model: ${data.current.model} (${data.current.provider})` : "Model"}
      >
        <CpuIcon />
        <span className="visually-hidden">
          {conversationId ? "Model for this chat" : "Model for new chats"}
        </span>
        <select
          className="picker-select"
          value={current}
          disabled={!data || busy}
          aria-describedby={failure ? errorId : undefined}
          onChange={(e) => void choose(e.target.value)}
        >
          {!data ? <option value="">Looking for models…</option> : null}
          {data && !data.current ? <option value="">Choose a model</option> : null}
          {data?.current && !listed ? (
            <option value={current}>
              {data.current.model} ({data.current.provider})
            </option>
          ) : null}
          {withModels.map((s) => (
            <optgroup key={`${s.source}:${s.provider}`} label={`${s.label} · ${s.source}`}>
              {s.models.map((m) => (
                <option key={m} value={valueOf(s.provider, m)}>
                  {m}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="icon-button"
        aria-label="Look for models again"
        title="Look for models again"
        onClick={models.refresh}
        disabled={models.loading}
      >
        <ReloadIcon />
      </button>
      {failure ? (
        <p id={errorId} className="picker-error" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
