/**
 * The plugin browser's MCP servers: each one with where it came from, its status (live, through
 * `mcp/changed`), its tools, its log, and Enable/Disable and Start/Restart. Servers start on first
 * use, so a stopped one lists no tools until a turn or Start brings it up.
 */
import { useState } from "react";
import type { CallResponse } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeQuery } from "../bridge/hooks.ts";
import { CardSection } from "../ui/CardSection.tsx";
import { ReloadIcon } from "../ui/icons.tsx";
import { StatusCard, type CardStatus } from "../ui/StatusCard.tsx";
import { plural } from "./format.ts";
import { McpServerLog } from "./McpServerLog.tsx";
import "./mcp.css";
import { visibleText } from "../../../main/core/visible-text.ts";
import { Shown } from "../ui/Shown.tsx";

type McpServerItem = CallResponse<"mcp/list">["servers"][number];

const STATUS: Record<McpServerItem["status"], CardStatus> = {
  running: { label: "Running", badge: "active", hint: "Started; its tools are offered" },
  stopped: { label: "Not started", badge: "idle", hint: "Starts on first use (a turn or Start)" },
  starting: { label: "Starting…", badge: "busy", hint: "Connecting and listing its tools" },
  restarting: { label: "Restarting…", badge: "busy", hint: "It stopped; trying again soon" },
  failed: { label: "Failed", badge: "failed", hint: "Could not be started; see the reason" },
  disabled: { label: "Disabled", badge: "disabled", hint: "Not started; its tools are withheld" },
};

const TRANSPORT: Record<McpServerItem["transport"], { label: string; title: string }> = {
  http: { label: "HTTP", title: "Streamable HTTP" },
  stdio: { label: "stdio", title: "A local program over stdio" },
};

export function McpServers() {
  const list = useBridgeQuery("mcp/list", undefined, { refreshOn: ["mcp/changed"] });
  const servers = list.data?.servers;
  if (servers === undefined && list.error === null) return null;
  return (
    <CardSection
      id="mcp-title"
      title="MCP servers"
      items={servers}
      error={list.error}
      errorTitle="Could not list the MCP servers"
      empty={
        <p className="muted">
          No MCP servers. Add them to <code>.mcp.json</code> in the project or to{" "}
          <code>config/mcp/NAME.yaml</code> in your Islet home.
        </p>
      }
      keyOf={(s) => s.name}
      card={(s) => <McpServerCard server={s} />}
    />
  );
}

function McpServerCard({ server: s }: { server: McpServerItem }) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const act = (run: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    run()
      .catch((e: unknown) => setError(errorMessage(e)))
      .finally(() => setBusy(false));
  };
  const disabled = s.status === "disabled";
  const failed = s.status === "failed";
  const pending = s.status === "starting" || s.status === "restarting";
  return (
    <StatusCard
      name={s.name}
      look={disabled ? "disabled" : failed ? "failed" : "active"}
      status={STATUS[s.status]}
      tag={TRANSPORT[s.transport]}
      stats={s.restarts > 0 ? <span>{plural(s.restarts, "restart")}</span> : null}
      source={{ text: s.source, title: "Where it is declared" }}
      problem={
        s.error ? { title: failed ? "Failed" : "Stopped", text: s.error, bad: failed } : undefined
      }
      actions={
        <>
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
        </>
      }
    >
      {s.tools.length > 0 ? (
        <dl className="facts">
          <div className="fact">
            <dt>Tools</dt>
            <dd>
              <ul className="chips mcp-tools" aria-label={`Tools of ${s.name}`}>
                {s.tools.map((t) => (
                  <li key={t.name}>
                    <code className="chip chip-code" title={visibleText(t.description)}>
                      <Shown text={t.name} />
                    </code>
                  </li>
                ))}
              </ul>
            </dd>
          </div>
        </dl>
      ) : null}
      <McpServerLog name={s.name} status={s.status} restarts={s.restarts} />
    </StatusCard>
  );
}
