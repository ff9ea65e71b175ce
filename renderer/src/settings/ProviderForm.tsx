/**
 * Add or edit a provider. The API key field is write-only: it starts empty, says whether a key is
 * set, and what is typed goes to the key store, never back to this page.
 */
import { useEffect, useId, useRef, useState } from "react";
import { PROVIDER_FORM_KINDS, providerKind } from "../../../main/core/provider-kinds.ts";
import type { ProviderView } from "./useSettings.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage } from "../bridge/hooks.ts";
import type { SettingsState } from "./useSettings.ts";

type Kind = ProviderView["type"];

const percentText = (n: number | null | undefined) => (n != null ? String(n) : "");
const percentOrDefault = (text: string) => (text.trim() === "" ? null : Number(text));

/** A share of the model's window, in percent, with what it bounds below it. */
function PercentField(props: {
  id: string;
  label: string;
  value: string;
  placeholder: number;
  hint: string;
  onChange(value: string): void;
}) {
  return (
    <>
      <label htmlFor={props.id}>{props.label}</label>
      <div className="form-budget">
        <input
          id={props.id}
          className="input"
          type="number"
          inputMode="numeric"
          min={1}
          max={100}
          step={1}
          value={props.value}
          placeholder={String(props.placeholder)}
          aria-describedby={`${props.id}-hint`}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <p id={`${props.id}-hint`} className="settings-hint">
          {props.hint}
        </p>
      </div>
    </>
  );
}

export function ProviderForm({
  existing,
  keys,
  change,
  onDone,
}: {
  existing: ProviderView | null;
  keys: { available: boolean; protection: string };
  change: SettingsState["change"];
  onDone(): void;
}) {
  const bridge = useBridge();
  const id = useId();
  const [name, setName] = useState(existing?.name ?? "");
  const [type, setType] = useState<Kind>(existing?.type ?? PROVIDER_FORM_KINDS[0].kind);
  const [baseUrl, setBaseUrl] = useState(existing?.baseUrl ?? "");
  const [model, setModel] = useState(existing?.model ?? "");
  const [budget, setBudget] = useState(percentText(existing?.extensionsBudget));
  const [hookBudget, setHookBudget] = useState(percentText(existing?.hookContextBudget));
  const [apiKey, setApiKey] = useState("");
  const [clearKey, setClearKey] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [test, setTest] = useState<{ ok: boolean; message: string } | null>(null);
  const [working, setWorking] = useState<"save" | "test" | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const firstField = useRef<HTMLInputElement>(null);
  // The form opens where the list is, often below the fold: bring it into view, ready to type.
  useEffect(() => {
    form.current?.scrollIntoView({ block: "nearest" });
    firstField.current?.focus({ preventScroll: true });
  }, []);
  const kind = PROVIDER_FORM_KINDS.find((k) => k.kind === type) ?? PROVIDER_FORM_KINDS[0];

  const draft = {
    name: name.trim(),
    type,
    ...(baseUrl.trim() ? { baseUrl: baseUrl.trim() } : {}),
    ...(model.trim() ? { model: model.trim() } : {}),
    ...(apiKey ? { apiKey } : {}),
  };

  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    setWorking("save");
    const failed = await change("settings/saveProvider", {
      ...draft,
      ...(existing && existing.name !== draft.name ? { previousName: existing.name } : {}),
      ...(clearKey ? { clearKey: true } : {}),
      // Empty: the default share; the engine checks the number and names the field if it is off.
      extensionsBudget: percentOrDefault(budget),
      hookContextBudget: percentOrDefault(hookBudget),
    });
    setWorking(null);
    setError(failed);
    if (!failed) {
      setApiKey("");
      onDone();
    }
  };

  const runTest = async () => {
    setWorking("test");
    setTest(null);
    try {
      const r = await bridge.call("settings/testProvider", draft);
      setTest({ ok: r.ok, message: r.message });
    } catch (err) {
      setTest({ ok: false, message: errorMessage(err) });
    }
    setWorking(null);
  };

  const keyState =
    existing?.key === "set"
      ? existing.keySource === "stored"
        ? "A key is stored. Type a new one to replace it."
        : `Taken from ${existing.apiKeyEnv ?? "the environment"}. Type one to store it here instead.`
      : "No key stored.";

  return (
    <form
      ref={form}
      className="provider-form"
      onSubmit={(e) => void save(e)}
      aria-label={existing ? `Edit ${existing.name}` : "Add a provider"}
    >
      <div className="form-grid">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          ref={firstField}
          id={`${id}-name`}
          className="input"
          value={name}
          required
          placeholder="work-openai"
          pattern="[A-Za-z0-9][A-Za-z0-9_.\-]*"
          onChange={(e) => setName(e.target.value)}
        />
        <label htmlFor={`${id}-type`}>Type</label>
        <select
          id={`${id}-type`}
          className="input"
          value={type}
          onChange={(e) => setType(e.target.value as Kind)}
        >
          {PROVIDER_FORM_KINDS.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-url`}>Base URL</label>
        <input
          id={`${id}-url`}
          className="input"
          value={baseUrl}
          inputMode="url"
          placeholder={kind.url}
          required={providerKind(type).urlRequired !== undefined}
          onChange={(e) => setBaseUrl(e.target.value)}
        />
        <label htmlFor={`${id}-model`}>Default model</label>
        <input
          id={`${id}-model`}
          className="input"
          value={model}
          placeholder="optional, e.g. gpt-4.1"
          onChange={(e) => setModel(e.target.value)}
        />
        <PercentField
          id={`${id}-budget`}
          label="Extensions budget"
          value={budget}
          placeholder={10}
          onChange={setBudget}
          hint="Percent of the model's context window that skills, agents, plugin and MCP tools may take in a request. Past it, each turn offers the most relevant ones and the model finds the rest with SearchTools. Empty: 10%."
        />
        <PercentField
          id={`${id}-hook-budget`}
          label="Hook context budget"
          value={hookBudget}
          placeholder={25}
          onChange={setHookBudget}
          hint="Percent of the model's context window that hooks may add to the conversation at once (plugins' SessionStart context, their messages). Past it, each text is cut to an equal part, and the chat says so. Empty: 25%."
        />
        <label htmlFor={`${id}-key`}>API key</label>
        <div className="form-key">
          <input
            id={`${id}-key`}
            className="input"
            type="password"
            autoComplete="off"
            value={apiKey}
            disabled={!keys.available}
            placeholder={
              existing?.key === "set"
                ? "•••••••• (set)"
                : providerKind(type).key
                  ? "sk-…"
                  : "not needed"
            }
            aria-describedby={`${id}-key-hint`}
            onChange={(e) => setApiKey(e.target.value)}
          />
          <p id={`${id}-key-hint`} className="settings-hint">
            {keys.available ? keyState : null} Keys are {keys.protection}; they never go in
            providers.yaml.
          </p>
          {existing?.keySource === "stored" ? (
            <label className="check">
              <input
                type="checkbox"
                checked={clearKey}
                onChange={(e) => setClearKey(e.target.checked)}
              />
              Forget the stored key
            </label>
          ) : null}
        </div>
      </div>
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {test ? (
        <p className={`form-test ${test.ok ? "form-test-ok" : "form-test-bad"}`} role="status">
          {test.ok ? "✓ " : "✗ "}
          {test.message}
        </p>
      ) : null}
      <div className="form-actions">
        <button
          type="button"
          className="button"
          onClick={() => void runTest()}
          disabled={working !== null || !draft.name}
        >
          {working === "test" ? "Testing…" : "Test connection"}
        </button>
        <span className="form-spacer" />
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={working !== null}>
          {working === "save" ? "Saving…" : existing ? "Save" : "Add provider"}
        </button>
      </div>
    </form>
  );
}
