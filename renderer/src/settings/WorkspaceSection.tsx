/**
 * Settings → Workspace: the open folder, whether its `.islet/` is trusted and why, and what it
 * asks for (held back while untrusted). Trusting or stopping is confirmed, then applies live: the
 * engine brings its commands, hooks and MCP servers in or takes them away (SPEC §6).
 */
import { useState } from "react";
import { BridgeError } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeQuery } from "../bridge/hooks.ts";
import { Callout } from "../ui/Callout.tsx";
import { Row, Section } from "./Section.tsx";
import { TrustDialog } from "./TrustDialog.tsx";

const refusal = (err: unknown) =>
  err instanceof BridgeError ? err.problem.title : errorMessage(err);

export function WorkspaceSection() {
  const bridge = useBridge();
  const trust = useBridgeQuery("trust/get", undefined, {
    refreshOn: ["settings/changed", "plugins/changed"],
  });
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const view = trust.data;

  const apply = async (trusted: boolean) => {
    setConfirming(false);
    setBusy(true);
    setFailure(null);
    try {
      await bridge.call("trust/set", { trusted });
      trust.refresh();
    } catch (err) {
      setFailure(refusal(err));
    } finally {
      setBusy(false);
    }
  };

  // Primary only when trusting would bring something in: with nothing held back it changes nothing.
  const worthTrusting = view !== undefined && !view.trusted && view.asks.length > 0;
  const action = view?.changeable ? (
    <button
      type="button"
      className={worthTrusting ? "button button-primary" : "button"}
      disabled={busy}
      onClick={() => setConfirming(true)}
    >
      {view.trusted ? "Stop trusting" : "Trust this folder…"}
    </button>
  ) : null;

  return (
    <Section
      id="workspace"
      title="Workspace"
      description="A project's own .islet/ folder runs nothing beyond sandboxed plugins until you trust the folder."
      actions={action}
    >
      {!view ? (
        <p className="settings-hint" role="status">
          {trust.error ?? "Reading the workspace's trust…"}
        </p>
      ) : (
        <>
          <Row label="Folder">
            <span className="path">{view.folder}</span>
          </Row>
          <Row label="Trust" hint={view.why}>
            <span className={view.trusted ? "trust-state trust-state-ok" : "trust-state"}>
              {view.trusted ? "Trusted" : "Not trusted"}
            </span>
          </Row>
          <Row
            label={view.trusted ? "Allowed" : "Held back"}
            hint={view.trusted ? "What its .islet/ brings in." : "What trusting would allow."}
          >
            {view.asks.length > 0 ? (
              <ul className="trust-list" aria-label={view.trusted ? "Allowed" : "Held back"}>
                {view.asks.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
            ) : (
              <span className="settings-hint">Nothing: its .islet/ asks for nothing more.</span>
            )}
          </Row>
        </>
      )}
      {failure ? (
        <Callout tone="bad" title="Trust was not changed" role="alert">
          <p>{failure}</p>
        </Callout>
      ) : null}
      {confirming && view ? (
        <TrustDialog
          folder={view.folder}
          trusting={!view.trusted}
          asks={view.asks}
          onConfirm={() => void apply(!view.trusted)}
          onCancel={() => setConfirming(false)}
        />
      ) : null}
    </Section>
  );
}
