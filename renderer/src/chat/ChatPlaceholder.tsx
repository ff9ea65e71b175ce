/** The Chat entry until the chat UI exists: says so plainly and shows the engine it would use. */
import type { AppInfo } from "../../../main/bridge/contract.ts";
import type { Query } from "../bridge/hooks.ts";
import { Callout } from "../ui/Callout.tsx";
import { Logo } from "../ui/Logo.tsx";

export function ChatPlaceholder({ info }: { info: Query<AppInfo> }) {
  return (
    <section className="view" aria-labelledby="chat-title">
      <header className="view-header">
        <div>
          <h1 id="chat-title">Chat</h1>
          <p className="view-subtitle">Conversations with the agent</p>
        </div>
      </header>
      <div className="view-body view-body-center">
        <div className="engine-card">
          <Logo size={56} />
          <h2>The chat view is not in this build yet</h2>
          <p className="muted">
            Meanwhile, chat from a terminal with <code>islet run</code>; it uses the same engine and
            the same plugins.
          </p>
          <EngineStatus info={info} />
        </div>
      </div>
    </section>
  );
}

function EngineStatus({ info }: { info: Query<AppInfo> }) {
  if (info.error !== null && info.data === undefined)
    return (
      <Callout tone="bad" title="The engine did not answer" role="alert">
        <p>{info.error}</p>
      </Callout>
    );
  if (info.data === undefined)
    return (
      <p className="engine-status" role="status">
        <span className="spinner" aria-hidden="true" /> Asking the engine…
      </p>
    );
  const v = info.data;
  return (
    <div className="engine-status" role="status" aria-label="Engine">
      <p className="engine-status-line">
        <span className="dot dot-ok" aria-hidden="true" /> Engine {v.version} connected
      </p>
      <dl className="kv">
        <dt>Runs in</dt>
        <dd>{v.host === "desktop" ? "the desktop app" : "islet serve (browser)"}</dd>
        <dt>Electron</dt>
        <dd>{v.versions.electron ?? "—"}</dd>
        <dt>Node</dt>
        <dd>{v.versions.node}</dd>
        <dt>Platform</dt>
        <dd>{v.platform}</dd>
        <dt>Workspace</dt>
        <dd className="path">{v.workdir}</dd>
        <dt>Home</dt>
        <dd className="path">{v.home}</dd>
      </dl>
    </div>
  );
}
