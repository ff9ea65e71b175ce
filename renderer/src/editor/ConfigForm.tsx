/**
 * A form generated from the plugin's `config:` in plugin.yaml: a checkbox, number or text field
 * per key (lists as one item per line, anything else as JSON). Saving writes plugin.yaml and the
 * hot reload applies it; a key a features file overrides is shown read-only with its value.
 */
import { useEffect, useState, type FormEvent } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent } from "../bridge/hooks.ts";

type Field = CallResponse<"plugins/config">["fields"][number];

function toText(f: Field): string {
  if (f.type === "list") return (f.value as string[]).join("\n");
  if (f.type === "json") return JSON.stringify(f.value, null, 2);
  return String(f.value ?? "");
}

function fromText(f: Field, text: string): unknown {
  switch (f.type) {
    case "number": {
      const n = Number(text);
      if (text.trim() === "" || !Number.isFinite(n)) throw new Error(`${f.key}: enter a number`);
      return n;
    }
    case "list":
      return text
        .split("\n")
        .map((s) => s.trim())
        .filter(Boolean);
    case "json":
      try {
        return JSON.parse(text);
      } catch {
        throw new Error(`${f.key}: not valid JSON`);
      }
    default:
      return text;
  }
}

export function ConfigForm({
  plugin,
  onSaved,
}: {
  plugin: string;
  onSaved(ms: number | null): void;
}) {
  const bridge = useBridge();
  const [fields, setFields] = useState<Field[] | null>(null);
  const [values, setValues] = useState<Record<string, string | boolean>>({});
  const [status, setStatus] = useState<{ tone: "ok" | "bad"; text: string } | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    bridge.call("plugins/config", { name: plugin }).then(
      ({ fields }) => {
        if (!live) return;
        setFields(fields);
        setValues(
          Object.fromEntries(
            fields.map((f) => [f.key, f.type === "boolean" ? Boolean(f.value) : toText(f)]),
          ),
        );
      },
      (e: unknown) => live && setStatus({ tone: "bad", text: errorMessage(e) }),
    );
    return () => {
      live = false;
    };
  }, [bridge, plugin, version]);
  useBridgeEvent("plugins/changed", () => setVersion((v) => v + 1));

  if (!fields) return status ? <p className="panel-empty error-text">{status.text}</p> : null;
  if (fields.length === 0)
    return (
      <p className="panel-empty">
        This plugin has no settings. Add a <code>config:</code> map to plugin.yaml and each key
        becomes a field here.
      </p>
    );

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const out: Record<string, unknown> = {};
      for (const f of fields) {
        if (f.overridden) continue;
        const v = values[f.key];
        out[f.key] = f.type === "boolean" ? v : fromText(f, String(v));
      }
      const saved = await bridge.call("plugins/saveConfig", { name: plugin, values: out });
      setStatus({
        tone: saved.report?.ok === false ? "bad" : "ok",
        text:
          saved.report?.ok === false
            ? `Saved, but the reload failed: ${saved.report.error ?? ""}`
            : "Saved; the plugin reloaded.",
      });
      onSaved(saved.report?.ms ?? null);
    } catch (err) {
      setStatus({ tone: "bad", text: errorMessage(err) });
    }
  };

  return (
    <form className="config-form" onSubmit={(e) => void submit(e)}>
      {fields.map((f) => {
        const id = `config-${f.key}`;
        const note = f.overridden
          ? `Set by a features file to ${JSON.stringify(f.effective)}`
          : null;
        return (
          <div key={f.key} className={`config-field config-${f.type}`}>
            {f.type === "boolean" ? (
              <label className="config-check">
                <input
                  type="checkbox"
                  checked={values[f.key] === true}
                  disabled={f.overridden}
                  onChange={(e) => setValues({ ...values, [f.key]: e.target.checked })}
                />
                <span>{f.key}</span>
              </label>
            ) : (
              <>
                <label htmlFor={id}>{f.key}</label>
                {f.type === "list" || f.type === "json" ? (
                  <textarea
                    id={id}
                    rows={3}
                    value={String(values[f.key] ?? "")}
                    disabled={f.overridden}
                    onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                  />
                ) : (
                  <input
                    id={id}
                    type={f.type === "number" ? "number" : "text"}
                    step="any"
                    value={String(values[f.key] ?? "")}
                    disabled={f.overridden}
                    onChange={(e) => setValues({ ...values, [f.key]: e.target.value })}
                  />
                )}
              </>
            )}
            {note ? <p className="config-note">{note}</p> : null}
            {f.type === "list" ? <p className="config-note">One item per line.</p> : null}
          </div>
        );
      })}
      <div className="config-actions">
        <button type="submit" className="button button-primary">
          Save settings
        </button>
        {status ? (
          <span role="status" className={status.tone === "ok" ? "text-ok" : "error-text"}>
            {status.text}
          </span>
        ) : null}
      </div>
    </form>
  );
}
