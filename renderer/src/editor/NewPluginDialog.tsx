/** New plugin: a template (each a working plugin), a name, and where it goes (global or project). */
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";

type Template = CallResponse<"editor/templates">["templates"][number];

export function NewPluginDialog({
  onClose,
  onCreated,
}: {
  onClose(): void;
  onCreated(name: string, entry: string, ms: number | null): void;
}) {
  const bridge = useBridge();
  const ref = useRef<HTMLDialogElement>(null);
  const [templates, setTemplates] = useState<Template[]>([]);
  const [template, setTemplate] = useState("");
  const [name, setName] = useState("");
  const [scope, setScope] = useState<"global" | "project">("global");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    ref.current?.showModal();
    bridge.call("editor/templates").then(
      (r) => {
        setTemplates(r.templates);
        setTemplate((t) => t || (r.templates[0]?.id ?? ""));
      },
      (e: unknown) => setError(errorMessage(e)),
    );
  }, [bridge]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const made = await bridge.call("editor/newPlugin", { template, name: name.trim(), scope });
      onCreated(made.name, made.entry, made.outcome.report?.ms ?? null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={ref}
      className="modal modal-wide"
      aria-labelledby="new-plugin-title"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <form onSubmit={(e) => void submit(e)}>
        <h2 id="new-plugin-title" className="modal-title">
          New plugin
        </h2>
        <fieldset className="template-list">
          <legend className="field-label">Start from</legend>
          {templates.map((t) => (
            <label
              key={t.id}
              className="template-option"
              data-checked={template === t.id || undefined}
            >
              <input
                type="radio"
                name="template"
                value={t.id}
                checked={template === t.id}
                onChange={() => setTemplate(t.id)}
              />
              <span className="template-title">{t.title}</span>
              <span className="template-desc">{t.description}</span>
            </label>
          ))}
        </fieldset>
        <div className="form-row">
          <label className="field">
            <span className="field-label">Name</span>
            <input
              autoFocus
              required
              pattern="[a-z0-9][a-z0-9\-]*"
              placeholder="my-plugin"
              value={name}
              onChange={(e) => setName(e.target.value)}
              aria-describedby="new-plugin-name-hint"
            />
            <span id="new-plugin-name-hint" className="field-hint">
              Lower-case letters, digits and dashes.
            </span>
          </label>
          <label className="field">
            <span className="field-label">Install in</span>
            <select
              value={scope}
              onChange={(e) => setScope(e.target.value as "global" | "project")}
            >
              <option value="global">Your Islet home (every project)</option>
              <option value="project">This project (.islet/plugins)</option>
            </select>
          </label>
        </div>
        {error ? (
          <p className="error-text" role="alert">
            {error}
          </p>
        ) : null}
        <div className="modal-actions">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button-primary" disabled={busy || !template}>
            {busy ? "Creating…" : "Create plugin"}
          </button>
        </div>
      </form>
    </dialog>
  );
}
