/**
 * A shell hook file or a Claude Code plugin, beside the code plugins: where it comes from, the
 * hooks it runs (and which Islet does not fire yet), what else it brings (a Claude plugin's each
 * part with its state), and what went wrong.
 */
import { useId, type ReactNode } from "react";
import type { ExtensionEntry } from "../../../main/bridge/contract.ts";
import { Callout } from "../ui/Callout.tsx";
import { componentRows } from "./ComponentRows.tsx";
import { FileIcon, FolderIcon } from "../ui/icons.tsx";
import { plural } from "./format.ts";

const KIND_LABEL: Record<ExtensionEntry["kind"], string> = {
  "shell-hooks": "Shell hooks",
  "claude-plugin": "Claude Code plugin",
  markdown: "Markdown",
};

const PATH_TITLE: Record<ExtensionEntry["kind"], string> = {
  "shell-hooks": "Hook file",
  "claude-plugin": "Plugin folder",
  markdown: "Home folder",
};

const STATUS: Record<ExtensionEntry["status"], { label: string; hint: string; badge: string }> = {
  active: { label: "Active", hint: "Loaded and running", badge: "active" },
  "held-back": {
    label: "Held back",
    hint: "This project's folder is not trusted: its hooks, MCP servers, commands, skills and agents do not run",
    badge: "disabled",
  },
  excluded: {
    label: "Excluded",
    hint: "Left out by include/exclude in features/plugins.yaml",
    badge: "disabled",
  },
  shadowed: {
    label: "Not loaded",
    hint: "Another plugin of this name loads instead",
    badge: "disabled",
  },
  failed: {
    label: "Failed",
    hint: "Nothing in it could be read: fix the errors below",
    badge: "failed",
  },
};

export function ExtensionCard({ entry: e }: { entry: ExtensionEntry }) {
  const titleId = useId();
  const status =
    e.kind === "claude-plugin" && e.status === "held-back"
      ? {
          ...STATUS["held-back"],
          hint: "This project's folder is not trusted: its hooks, MCP servers and language servers do not run; its commands, skills and agents do",
        }
      : STATUS[e.status];
  return (
    <article className={`plugin-card plugin-${status.badge}`} aria-labelledby={titleId}>
      <header className="plugin-head">
        <h2 id={titleId} className="plugin-name">
          {e.name}
        </h2>
        <span className={`badge badge-${status.badge}`} title={status.hint}>
          <span className="dot" aria-hidden="true" />
          {status.label}
        </span>
        <span className="tag">{KIND_LABEL[e.kind]}</span>
        <span
          className="tag"
          title={e.source === "global" ? "From your Islet home" : "From this project's .islet/"}
        >
          {e.source === "global" ? "Global" : "Project"}
        </span>
      </header>

      <p className={e.description ? "plugin-desc" : "plugin-desc muted"}>
        {e.description || "No description"}
      </p>

      {e.status === "shadowed" ? (
        <Callout tone="info" title="Another copy loads">
          The copy in {e.shadowedBy ?? "another folder"} loads instead: two marketplaces can carry
          the same plugin. Remove that one to load this copy.
        </Callout>
      ) : null}

      {e.errors.length > 0 ? (
        <Callout tone="bad" title={plural(e.errors.length, "error")}>
          <ul className="callout-list">
            {e.errors.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </Callout>
      ) : null}
      {e.warnings.length > 0 ? (
        <Callout tone="warn" title={plural(e.warnings.length, "warning")}>
          <ul className="callout-list">
            {e.warnings.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </Callout>
      ) : null}

      <Facts entry={e} />

      <footer className="plugin-foot">
        <span className="path" title={PATH_TITLE[e.kind]}>
          {e.kind === "shell-hooks" ? <FileIcon /> : <FolderIcon />}
          <span>{e.path}</span>
        </span>
      </footer>
    </article>
  );
}

function Chips({ items, prefix = "" }: { items: string[]; prefix?: string }) {
  return (
    <span className="chips">
      {items.map((item) => (
        <code key={item} className="chip chip-code">
          {prefix}
          {item}
        </code>
      ))}
    </span>
  );
}

function Facts({ entry: e }: { entry: ExtensionEntry }) {
  const rows: [string, ReactNode][] = [];
  if (e.hooks.length > 0)
    rows.push([
      "Hooks",
      <ul className="callout-list">
        {e.hooks.map((h, i) => (
          <li key={`${h.event}-${i}`}>
            <code className="chip chip-code">
              {h.event}
              {h.matcher ? <span className="chip-note"> {h.matcher}</span> : null}
            </code>{" "}
            <code title={`Time limit ${h.timeoutS} s`}>{h.command}</code>
            {h.fires ? null : <span className="muted"> (not fired by Islet yet)</span>}
          </li>
        ))}
      </ul>,
    ]);
  if (e.components) rows.push(...componentRows(e.components));
  else {
    if (e.commands.length > 0) rows.push(["Commands", <Chips items={e.commands} prefix="/" />]);
    if (e.skills.length > 0) rows.push(["Skills", <Chips items={e.skills} />]);
    if (e.agents.length > 0) rows.push(["Agents", <Chips items={e.agents} />]);
    if (e.mcpServers.length > 0) rows.push(["MCP servers", <Chips items={e.mcpServers} />]);
    if (e.outputStyles.length > 0) rows.push(["Output styles", <Chips items={e.outputStyles} />]);
  }
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
