/** Settings → Providers: the configured providers, each testable, editable and removable. */
import { useState } from "react";
import { providerKind } from "../../../main/core/provider-kinds.ts";
import type { SettingsView } from "./useSettings.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import { Callout } from "../ui/Callout.tsx";
import { PlusIcon } from "../ui/more-icons.tsx";
import { ProviderForm } from "./ProviderForm.tsx";
import { Section } from "./Section.tsx";
import type { SettingsState } from "./useSettings.ts";

export function ProvidersSection({
  view,
  change,
}: {
  view: SettingsView;
  change: SettingsState["change"];
}) {
  const bridge = useBridge();
  const [editing, setEditing] = useState<string | "new" | null>(null);
  const [confirm, setConfirm] = useState<string | null>(null);
  const [status, setStatus] = useState<Record<string, { ok: boolean; message: string }>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const test = async (name: string) => {
    setStatus((s) => ({ ...s, [name]: { ok: true, message: "Testing…" } }));
    try {
      const r = await bridge.call("settings/testProvider", { name });
      setStatus((s) => ({ ...s, [name]: { ok: r.ok, message: r.message } }));
    } catch (err) {
      setStatus((s) => ({ ...s, [name]: { ok: false, message: errorMessage(err) } }));
    }
  };

  const remove = async (name: string) => {
    setFailure(await change("settings/removeProvider", { name }));
    setConfirm(null);
  };

  return (
    <Section
      id="providers"
      title="Providers"
      description={
        <>
          Model servers and cloud APIs, saved in <code>{view.providersFile}</code>. Local servers
          (Ollama, LM Studio, llama.cpp) are found without setup.
        </>
      }
      actions={
        editing === null ? (
          <button type="button" className="button" onClick={() => setEditing("new")}>
            <PlusIcon /> Add provider
          </button>
        ) : null
      }
    >
      {view.providersError ? (
        <Callout tone="bad" title="providers.yaml could not be read" role="alert">
          <p>{view.providersError}</p>
        </Callout>
      ) : null}
      {failure ? (
        <p className="form-error" role="alert">
          {failure}
        </p>
      ) : null}
      {editing === "new" ? (
        <ProviderForm
          existing={null}
          keys={view.keys}
          change={change}
          onDone={() => setEditing(null)}
        />
      ) : null}
      {view.providers.length === 0 && editing !== "new" ? (
        <p className="settings-empty">
          No providers configured. Islet uses a local server it finds; add a provider for a cloud
          API or a server elsewhere.
        </p>
      ) : null}
      <ul className="provider-list">
        {view.providers.map((p) =>
          editing === p.name ? (
            <li key={p.name}>
              <ProviderForm
                existing={p}
                keys={view.keys}
                change={change}
                onDone={() => setEditing(null)}
              />
            </li>
          ) : (
            <li key={p.name} className="provider">
              <div className="provider-main">
                <p className="provider-name">
                  {p.name}
                  <span className="tag">{providerKind(p.type).label}</span>
                  {p.source === "project" ? <span className="tag">this workspace</span> : null}
                </p>
                <p className="provider-detail">
                  <span className="path">{p.baseUrl ?? "default address"}</span>
                  {p.model ? <> · {p.model}</> : null}
                </p>
                <p className="provider-detail">
                  <span className={`key-state key-${p.key.replace(" ", "-")}`}>
                    {p.key === "not needed"
                      ? "No key needed"
                      : p.key === "set"
                        ? `Key set${p.keySource === "environment" ? ` (from ${p.apiKeyEnv ?? "the environment"})` : ""}`
                        : "Key not set"}
                  </span>
                </p>
                {status[p.name] ? (
                  <p
                    className={`form-test ${status[p.name].ok ? "form-test-ok" : "form-test-bad"}`}
                    role="status"
                  >
                    {status[p.name].message}
                  </p>
                ) : null}
              </div>
              {confirm === p.name ? (
                <div className="provider-actions" role="group" aria-label={`Remove ${p.name}?`}>
                  <span>Remove {p.name}?</span>
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => setConfirm(null)}
                  >
                    Cancel
                  </button>
                  <button
                    type="button"
                    className="button button-small button-danger"
                    onClick={() => void remove(p.name)}
                  >
                    Remove
                  </button>
                </div>
              ) : (
                <div className="provider-actions">
                  <button
                    type="button"
                    className="button button-small"
                    onClick={() => void test(p.name)}
                  >
                    Test
                  </button>
                  {p.source === "global" ? (
                    <>
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={`Edit ${p.name}`}
                        onClick={() => setEditing(p.name)}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={`Remove ${p.name}`}
                        onClick={() => setConfirm(p.name)}
                      >
                        Remove
                      </button>
                    </>
                  ) : null}
                </div>
              )}
            </li>
          ),
        )}
      </ul>
    </Section>
  );
}
