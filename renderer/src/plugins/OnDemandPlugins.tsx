/**
 * The plugin browser's on-demand plugins (SPEC §8): CLI-tool runners and `activation: on-demand`
 * code plugins, each with its status (live, through `activation/changed`: the model may activate
 * one too) and an Activate / Deactivate toggle. Activating asks in the question dialog, with
 * what the plugin would run.
 */
import { useId, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeQuery } from "../bridge/hooks.ts";
import { Callout } from "../ui/Callout.tsx";
import "./mcp.css";

type Item = CallResponse<"activation/list">["plugins"][number];

const STATUS: Record<Item["status"], { label: string; badge: string; hint: string }> = {
  active: { label: "Active", badge: "active", hint: "Activated; its tools are offered" },
  inactive: { label: "Inactive", badge: "idle", hint: "Listed to the model; loads once activated" },
  failed: { label: "Failed", badge: "failed", hint: "Could not be activated; see the reason" },
  "held-back": {
    label: "Held back",
    badge: "disabled",
    hint: "A project plugin of a folder you have not trusted",
  },
};

export function OnDemandPlugins() {
  const list = useBridgeQuery("activation/list", {
    refreshOn: ["activation/changed", "plugins/changed"],
  });
  const plugins = list.data?.plugins;
  if ((plugins === undefined || plugins.length === 0) && list.error === null) return null;
  return (
    <section className="mcp-servers" aria-labelledby="on-demand-title">
      <h2 id="on-demand-title" className="section-title">
        On-demand plugins
        {plugins ? <span className="section-count">{plugins.length}</span> : null}
      </h2>
      <p className="muted">
        Listed to the model, which may ask to activate one; nothing runs until you allow it.
      </p>
      {list.error ? (
        <Callout tone="bad" title="Could not list the on-demand plugins" role="alert">
          <p>{list.error}.</p>
        </Callout>
      ) : null}
      {plugins && plugins.length > 0 ? (
        <ul className="plugin-list" aria-label="On-demand plugins">
          {plugins.map((p) => (
            <li key={p.name}>
              <OnDemandCard plugin={p} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function OnDemandCard({ plugin: p }: { plugin: Item }) {
  const titleId = useId();
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; bad: boolean } | null>(null);
  const status = STATUS[p.status];
  const active = p.status === "active";
  const toggle = () => {
    setBusy(true);
    setNote(null);
    const run = active
      ? bridge.call("activation/deactivate", { name: p.name }).then(() => null)
      : bridge
          .call("activation/activate", { name: p.name })
          .then((r) =>
            r.outcome === "activated" ? null : { text: r.line, bad: r.outcome === "failed" },
          );
    run
      .then(setNote)
      .catch((e: unknown) => setNote({ text: errorMessage(e), bad: true }))
      .finally(() => setBusy(false));
  };
  return (
    <article
      className={`plugin-card mcp-card plugin-${p.status === "failed" ? "failed" : active ? "active" : "disabled"}`}
      aria-labelledby={titleId}
    >
      <header className="plugin-head">
        <h3 id={titleId} className="plugin-name">
          {p.name}
        </h3>
        <span className={`badge badge-${status.badge}`} title={status.hint}>
          <span className="dot" aria-hidden="true" />
          {status.label}
        </span>
        <span
          className="tag"
          title={p.kind === "runner" ? "Runs a command-line tool" : "Sandboxed code"}
        >
          {p.kind === "runner" ? "CLI tool" : "code"}
        </span>
      </header>
      {p.description ? <p className="plugin-desc">{p.description}</p> : null}
      {p.consentDetails.length > 0 ? (
        <ul className="activation-details" aria-label={`What ${p.name} does when active`}>
          {p.consentDetails.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
      {p.reason ? (
        <Callout
          tone={p.status === "failed" ? "bad" : "warn"}
          title={p.status === "failed" ? "Failed" : "Held back"}
        >
          <p className="error-text">{p.reason}</p>
        </Callout>
      ) : null}
      <p className="plugin-desc mcp-source" title="Its manifest">
        {p.manifestFile}
      </p>
      <footer className="plugin-foot mcp-actions activation-actions">
        <button
          type="button"
          className={active ? "button" : "button button-primary"}
          disabled={busy || p.status === "held-back"}
          aria-busy={busy}
          aria-label={`${active ? "Deactivate" : "Activate"} ${p.name}`}
          onClick={toggle}
        >
          {busy
            ? active
              ? "Deactivating…"
              : "Waiting for your answer…"
            : active
              ? "Deactivate"
              : "Activate"}
        </button>
        {note ? (
          <p className={note.bad ? "error-text" : "muted"} role="status">
            {note.text}
          </p>
        ) : null}
      </footer>
    </article>
  );
}
