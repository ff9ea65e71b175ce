/**
 * The plugin browser's MCP servers: each one with where it came from, its status (live, through
 * `mcp/changed`), its tools, and Enable/Disable and Start/Restart. Servers start on first use,
 * so a stopped one lists no tools until a turn or Start brings it up.
 */
import { useId, useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeQuery } from "../bridge/hooks.ts";
import { Callout } from "../ui/Callout.tsx";
import { ReloadIcon } from "../ui/icons.tsx";
import { plural } from "./format.ts";
import "./mcp.css";

type McpServerItem = CallResponse<"mcp/list">["servers"][number];

const STATUS: Record<McpServerItem["status"], { label: string; badge: string; hint: string }> = {
  running: { label: "Running", badge: "active", hint: "Started; its tools are offered" },
  stopped: { label: "Not started", badge: "idle", hint: "Starts on first use (a turn or Start)" },
  starting: { label: "Starting…", badge: "busy", hint: "Connecting and listing its tools" },
  restarting: { label: "Restarting…", badge: "busy", hint: "It stopped; trying again soon" },
  failed: { label: "Failed", badge: "failed", hint: "Could not be started; see the reason" },
  disabled: { label: "Disabled", badge: "disabled", hint: "Not started; its tools are withheld" },
};

export function McpServers() {
  const list = useBridgeQuery("mcp/list", { refreshOn: ["mcp/changed"] });
  const servers = list.data?.servers;
  if (servers === undefined && list.error === null) return null;
  return (
    <section className="mcp-servers" aria-labelledby="mcp-title">
      <h2 id="mcp-title" className="section-title">
        MCP servers
        {servers ? <span className="section-count">{servers.length}</span> : null}
      </h2>
      {list.error ? (
        <Callout tone="bad" title="Could not list the MCP servers" role="alert">
          <p>{list.error}.</p>
        </Callout>
      ) : null}
      {servers && servers.length === 0 ? (
        <p className="muted">
          No MCP servers. Add them to <code>.mcp.json</code> in the project or to{" "}
          <code>config/mcp/NAME.yaml</code> in your Islet home.
        </p>
      ) : null}
      {servers && servers.length > 0 ? (
        <ul className="plugin-list" aria-label="MCP servers">
          {servers.map((s) => (
            <li key={s.name}>
              <McpServerCard server={s} />
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function McpServerCard({ server: s }: { server: McpServerItem }) {
  const titleId = useId();
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const status = STATUS[s.status];
  const act = (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    run()
      .catch((e: unknown) => setError(errorMessage(e)))
      .finally(() => setBusy(false));
  };
  const disabled = s.status === "disabled";
  const pending = s.status === "starting" || s.status === "restarting";
  return (
    <article
      className={`plugin-card mcp-card plugin-${disabled ? "disabled" : s.status === "failed" ? "failed" : "active"}`}
      aria-labelledby={titleId}
    >
      <header className="plugin-head">
        <h3 id={titleId} className="plugin-name">
          {s.name}
        </h3>
        <span className={`badge badge-${status.badge}`} title={status.hint}>
          <span className="dot" aria-hidden="true" />
          {status.label}
        </span>
        <span
          className="tag"
          title={s.transport === "http" ? "Streamable HTTP" : "A local program over stdio"}
        >
          {s.transport === "http" ? "HTTP" : "stdio"}
        </span>
        <span className="plugin-stats">
          {s.restarts > 0 ? <span>{plural(s.restarts, "restart")}</span> : null}
        </span>
      </header>
      <p className="plugin-desc mcp-source" title="Where it is declared">
        {s.source}
      </p>
      {s.error ? (
        <Callout
          tone={s.status === "failed" ? "bad" : "warn"}
          title={s.status === "failed" ? "Failed" : "Stopped"}
        >
          <p className="error-text">{s.error}</p>
        </Callout>
      ) : null}
      {s.tools.length > 0 ? (
        <dl className="facts">
          <div className="fact">
            <dt>Tools</dt>
            <dd>
              <ul className="chips mcp-tools" aria-label={`Tools of ${s.name}`}>
                {s.tools.map((t) => (
                  <li key={t.name}>
                    <code className="chip chip-code" title={t.description}>
                      {t.name}
                    </code>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      ) : null}
      <footer className="plugin-foot mcp-actions">
        <button
          type="button"
          className="button"
          disabled={busy}
          aria-label={`${disabled ? "Enable" : "Disable"} ${s.name}`}
          onClick={() =>
            act(() => bridge.call("mcp/setEnabled", { name: s.name, enabled: disabled }))
          }
        >
          {disabled ? "Enable" : "Disable"}
        </button>
        {!disabled ? (
          <button
            type="button"
            className="button"
            disabled={busy || pending}
            aria-busy={busy || pending}
            aria-label={`${s.status === "running" ? "Restart" : "Start"} ${s.name}`}
            onClick={() => act(() => bridge.call("mcp/restart", { name: s.name }))}
          >
            <span className={busy || pending ? "spin" : undefined}>
              <ReloadIcon />
            </span>
            {s.status === "running" ? "Restart" : "Start"}
          </button>
        ) : null}
        {error ? (
          <p className="error-text" role="alert">
            {error}
          </p>
        ) : null}
      </footer>
    </article>
  );
}
