/**
 * An MCP server's "Log" disclosure: its recent stderr, the log messages it sent and lost
 * connections (`mcp/log`), oldest first so the newest is at the bottom, scrolled there. Read when
 * opened and again whenever the server's status changes while open, so why it failed shows
 * without a terminal. Shows the lines as the engine keeps them, adding nothing (no command or env).
 */
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { errorMessage, useBridgeQuery } from "../bridge/hooks.ts";
import { ReloadIcon } from "../ui/icons.tsx";
import "./mcp-log.css";

export function McpServerLog({
  name,
  status,
  restarts,
}: {
  name: string;
  /** A change of status or restarts while open reads the log again. */
  status: string;
  restarts: number;
}) {
  const [open, setOpen] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const view = useRef<HTMLPreElement>(null);
  const log = useBridgeQuery("mcp/log", { name }, { enabled: open });
  const { refresh } = log;
  const lines = log.data?.lines ?? null;
  const error = log.error;

  // Opening reads the log (the query is enabled then); a change of status or restarts while open
  // reads it again. Not keyed on `open`: opening alone must not read it twice.
  useEffect(() => {
    if (open) refresh();
  }, [status, restarts]);

  // Newest at the bottom: keep the view there when lines come.
  useLayoutEffect(() => {
    const el = view.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [lines, open]);

  const copy = () => {
    const text = (lines ?? []).join("\n");
    navigator.clipboard.writeText(text).then(
      () => setNote(`Copied ${lines?.length === 1 ? "1 line" : `${lines?.length ?? 0} lines`}`),
      (err: unknown) => setNote(`Could not copy the log: ${errorMessage(err)}`),
    );
  };

  return (
    <details
      className="mcp-log"
      open={open}
      onToggle={(e) => {
        setOpen(e.currentTarget.open);
        setNote(null);
      }}
    >
      <summary className="mcp-log-summary">Log</summary>
      {open ? (
        <div className="mcp-log-body">
          {error ? (
            <p className="error-text" role="alert">
              Could not read the log of {name}: {error}
            </p>
          ) : null}
          {lines && lines.length === 0 ? (
            <p className="muted">
              Nothing yet: it has written nothing to stderr and sent no log message.
            </p>
          ) : null}
          {lines && lines.length > 0 ? (
            <pre
              ref={view}
              className="mcp-log-lines"
              role="log"
              tabIndex={0}
              aria-label={`Log of ${name}`}
            >
              {lines.join("\n")}
            </pre>
          ) : null}
          <div className="mcp-log-actions">
            <button
              type="button"
              className="button"
              disabled={!lines || lines.length === 0}
              aria-label={`Copy the log of ${name}`}
              onClick={copy}
            >
              Copy
            </button>
            <button
              type="button"
              className="button"
              aria-label={`Refresh the log of ${name}`}
              onClick={refresh}
            >
              <ReloadIcon />
              Refresh
            </button>
            {note ? (
              <p className="muted" role="status">
                {note}
              </p>
            ) : null}
          </div>
        </div>
      ) : null}
    </details>
  );
}
