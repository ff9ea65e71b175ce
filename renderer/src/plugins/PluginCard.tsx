/** One installed plugin: what it is, what it hooks into, what it adds, and what went wrong. */
import { useId, type ReactNode } from "react";
import type { PluginEntry } from "../../../main/bridge/contract.ts";
import type { Problem } from "../../../main/host/problem.ts";
import { Callout } from "../ui/Callout.tsx";
import { FileIcon, FolderIcon } from "../ui/icons.tsx";
import { HookGroups } from "./HookGroups.tsx";
import { RestartButton } from "./RestartButton.tsx";
import { formatBytes, plural, problemParts, STATUS_HINT, STATUS_LABEL } from "./format.ts";
import { Shown } from "../ui/Shown.tsx";

export function PluginCard({
  plugin: p,
  showBackend,
  onEdit,
}: {
  plugin: PluginEntry;
  showBackend: boolean;
  /** Opens the plugin in the editor. */
  onEdit?(name: string): void;
}) {
  const titleId = useId();
  return (
    <article className={`plugin-card plugin-${p.status}`} aria-labelledby={titleId}>
      <header className="plugin-head">
        <h2 id={titleId} className="plugin-name">
          {p.name}
        </h2>
        <span className={`badge badge-${p.status}`} title={STATUS_HINT[p.status]}>
          <span className="dot" aria-hidden="true" />
          {STATUS_LABEL[p.status]}
        </span>
        <span
          className="tag"
          title={p.source === "global" ? "From your Islet home" : "From this project's .islet/"}
        >
          {p.source === "global" ? "Global" : "Project"}
        </span>
        <span className="plugin-stats">
          {showBackend ? <span>{p.backend.name}</span> : null}
          <SdkNote sdk={p.sdk} />
          {p.heapBytes > 0 ? (
            <span title="Heap the plugin's sandbox uses now">{formatBytes(p.heapBytes)} heap</span>
          ) : null}
        </span>
      </header>

      <p className={p.description ? "plugin-desc" : "plugin-desc muted"}>
        {p.description ? <Shown text={p.description} /> : "No description in plugin.yaml"}
      </p>

      <PluginProblems plugin={p} />

      <Facts plugin={p} />

      <footer className="plugin-foot">
        <span className="path" title="Plugin folder">
          <FolderIcon />
          <span>{p.dir}</span>
        </span>
        {p.logFile ? (
          <span className="path" title="Plugin log">
            <FileIcon />
            <span>{p.logFile}</span>
          </span>
        ) : null}
        {onEdit ? (
          <button
            type="button"
            className="button plugin-edit"
            onClick={() => onEdit(p.name)}
            aria-label={`Edit ${p.name}`}
          >
            Edit
          </button>
        ) : null}
      </footer>
    </article>
  );
}

function SdkNote({ sdk }: { sdk: PluginEntry["sdk"] }) {
  switch (sdk) {
    case "compatible":
      return <span title="plugin.yaml sdk: matches this Islet's SDK">SDK compatible</span>;
    case "incompatible":
      return (
        <span
          className="text-warn"
          title="plugin.yaml sdk: written for an SDK this Islet does not provide"
        >
          SDK incompatible
        </span>
      );
    case "unchecked":
      return (
        <span title="plugin.yaml has no sdk: field, so compatibility is not checked">
          SDK not declared
        </span>
      );
  }
}

function PluginProblems({ plugin: p }: { plugin: PluginEntry }) {
  return (
    <>
      {p.error && p.status !== "errored" ? (
        <Callout tone="bad" title={p.status === "failed" ? "Failed to load" : "Error"}>
          <ErrorText message={p.error} problems={p.problems} base={p.dir} />
        </Callout>
      ) : null}
      {p.reloadError ? (
        <Callout
          tone="warn"
          title="Your last edit did not load — the previous version keeps running"
        >
          <ErrorText message={p.reloadError} problems={p.problems} base={p.dir} />
        </Callout>
      ) : null}
      {p.warnings.length > 0 ? (
        <Callout tone="warn" title={plural(p.warnings.length, "warning")}>
          <ul className="callout-list">
            {p.warnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </Callout>
      ) : null}
      {p.status === "errored" ? (
        <Callout tone="bad" title="Stopped: it kept failing, so Islet no longer calls it">
          {p.error ? <ErrorText message={p.error} problems={[]} base={p.dir} /> : null}
          <p>
            Fix it and save (or Reload), or restart it as it is.
            {p.logFile ? " Its log has the details." : ""}
          </p>
          <RestartButton name={p.name} />
        </Callout>
      ) : p.faults > 0 || p.restarts > 0 ? (
        <Callout
          tone="warn"
          title={`${plural(p.faults, "fault")} · ${plural(p.restarts, "restart")}`}
        >
          {p.lastFault ? (
            <p className="error-text">
              <span className="error-location">
                Last: {p.lastFault.call} at {new Date(p.lastFault.at).toLocaleTimeString()}
              </span>
              <span>{p.lastFault.message}</span>
            </p>
          ) : null}
          <p>
            Calls into this plugin threw, timed out or ran out of memory; their results were
            ignored.
            {p.logFile ? " Its log has the details." : ""}
          </p>
        </Callout>
      ) : null}
    </>
  );
}

/** The problems behind a message, each with its place; the message alone when it has none. */
function ErrorText({
  message,
  problems,
  base,
}: {
  message: string;
  problems: readonly Problem[];
  base: string;
}) {
  if (problems.length === 0)
    return (
      <p className="error-text">
        <span>{message}</span>
      </p>
    );
  return (
    <>
      {problems.map((problem, i) => {
        const { location, text } = problemParts(problem, base);
        return (
          <p className="error-text" key={i}>
            <span className="error-location">{location}</span>
            <span>{text}</span>
          </p>
        );
      })}
    </>
  );
}

function Facts({ plugin: p }: { plugin: PluginEntry }) {
  const rows: [string, ReactNode][] = [];
  if (p.hooks.length > 0) rows.push(["Hooks", <HookGroups hooks={p.hooks} fired={p.fired} />]);
  if (p.condition) rows.push(["Condition", <code className="chip chip-code">{p.condition}</code>]);
  if (p.once)
    rows.push([
      "Once",
      <span>
        Runs once per session{" · "}
        {p.fired.length > 0 ? (
          <span className="text-ok">fired ({p.fired.join(", ")})</span>
        ) : (
          <span className="muted">not fired yet</span>
        )}
      </span>,
    ]);
  if (p.tool)
    rows.push([
      "Tool",
      <span className="chips">
        <code className="chip chip-code">{p.tool.name}</code>
        {p.tool.optIn ? (
          <span
            className="chip"
            title="Only agents that name this tool get it (a * pattern does not)"
          >
            opt-in
          </span>
        ) : null}
        {p.tool.override ? (
          <span
            className="chip chip-warn"
            title="Replaces a built-in or another plugin's tool of the same name"
          >
            overrides
          </span>
        ) : null}
        <span
          className="chip"
          title={p.tool.parallel ? "May run alongside other tool calls" : "Runs one call at a time"}
        >
          {p.tool.parallel ? "parallel" : "sequential"}
        </span>
      </span>,
    ]);
  if (p.command)
    rows.push([
      "Command",
      <span className="chips">
        <code className="chip chip-code">
          /{p.command.name}
          {p.command.hints ? <span className="chip-note"> {p.command.hints}</span> : null}
        </code>
        {p.command.forward ? (
          <span className="chip" title="The command's output goes on to the model">
            forwards to the model
          </span>
        ) : null}
      </span>,
    ]);
  if (p.permissions.length > 0)
    rows.push(["Permissions", <PermissionChips permissions={p.permissions} />]);
  if (rows.length === 0) return null;
  return (
    <dl className="facts">
      {rows.map(([label, value]) => (
        <div key={label} className="fact">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

const PERMISSION_STATUS: Record<PluginEntry["permissions"][number]["status"], string> = {
  granted: "granted",
  "granted-once": "granted for this run",
  denied: "denied",
  pending: "not granted yet",
  "held-back": "held back: folder not trusted",
};

function PermissionChips({ permissions }: { permissions: PluginEntry["permissions"] }) {
  return (
    <span className="chips">
      {permissions.map((item) => {
        const what =
          item.kind === "exec"
            ? item.target
              ? `runs ${item.target.slice("bash:".length)}`
              : "runs programs"
            : item.kind === "wasm"
              ? "WebAssembly"
              : item.kind === "rewrite"
                ? `rewrites ${item.target} calls`
                : item.kind === "override"
                  ? "replaces a tool"
                  : `${item.kind} ${item.target}${item.write ? " (write)" : ""}`;
        const ok = item.status === "granted" || item.status === "granted-once";
        return (
          <span
            key={`${item.kind}:${item.target}:${item.write ? "w" : ""}`}
            className={`chip ${ok ? "" : "chip-warn"}`}
            title={`${item.reason} — ${PERMISSION_STATUS[item.status]}`}
          >
            <code>{what}</code>
            <span className="chip-note"> · {PERMISSION_STATUS[item.status]}</span>
          </span>
        );
      })}
    </span>
  );
}
