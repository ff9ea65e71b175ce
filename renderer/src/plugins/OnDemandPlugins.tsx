/**
 * The plugin browser's on-demand plugins (SPEC §8): CLI-tool runners and `activation: on-demand`
 * code plugins, each with its status (live, through `activation/changed`: the model may activate
 * one too) and an Activate / Deactivate toggle. Activating asks in the question dialog, with
 * what the plugin would run.
 */
import { useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeQuery } from "../bridge/hooks.ts";
import { CardSection } from "../ui/CardSection.tsx";
import { StatusCard, type CardStatus } from "../ui/StatusCard.tsx";
import "./mcp.css";

type Item = CallResponse<"activation/list">["plugins"][number];

const STATUS: Record<Item["status"], CardStatus> = {
  active: { label: "Active", badge: "active", hint: "Activated; its tools are offered" },
  inactive: { label: "Inactive", badge: "idle", hint: "Listed to the model; loads once activated" },
  failed: { label: "Failed", badge: "failed", hint: "Could not be activated; see the reason" },
  "held-back": {
    label: "Held back",
    badge: "disabled",
    hint: "A project plugin of a folder you have not trusted",
  },
};

const KIND: Record<Item["kind"], { label: string; title: string }> = {
  runner: { label: "CLI tool", title: "Runs a command-line tool" },
  code: { label: "code", title: "Sandboxed code" },
};

export function OnDemandPlugins() {
  const list = useBridgeQuery("activation/list", undefined, {
    refreshOn: ["activation/changed", "plugins/changed"],
  });
  const plugins = list.data?.plugins;
  if ((plugins === undefined || plugins.length === 0) && list.error === null) return null;
  return (
    <CardSection
      id="on-demand-title"
      title="On-demand plugins"
      intro="Listed to the model, which may ask to activate one; nothing runs until you allow it."
      items={plugins}
      error={list.error}
      errorTitle="Could not list the on-demand plugins"
      keyOf={(p) => p.name}
      card={(p) => <OnDemandCard plugin={p} />}
    />
  );
}

function OnDemandCard({ plugin: p }: { plugin: Item }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ text: string; bad: boolean } | null>(null);
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
  const failed = p.status === "failed";
  return (
    <StatusCard
      name={p.name}
      look={failed ? "failed" : active ? "active" : "disabled"}
      status={STATUS[p.status]}
      tag={KIND[p.kind]}
      description={p.description}
      source={{ text: p.manifestFile, title: "Its manifest" }}
      problem={
        p.reason
          ? { title: failed ? "Failed" : "Held back", text: p.reason, bad: failed }
          : undefined
      }
      actions={
        <>
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
        </>
      }
    >
      {p.consentDetails.length > 0 ? (
        <ul className="activation-details" aria-label={`What ${p.name} does when active`}>
          {p.consentDetails.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      ) : null}
    </StatusCard>
  );
}
