/** Below the code: the plugin's problems (marked in the code too), its live log, its settings. */
import { useState } from "react";
import type { Problem } from "../../../main/host/problem.ts";
import { ConfigForm } from "./ConfigForm.tsx";
import { LogPanel } from "./LogPanel.tsx";

type Tab = "problems" | "log" | "settings";

export function BottomPanel({
  plugin,
  problems,
  onOpenProblem,
  onConfigSaved,
}: {
  plugin: string;
  problems: Problem[];
  onOpenProblem(p: Problem): void;
  onConfigSaved(ms: number | null): void;
}) {
  const [tab, setTab] = useState<Tab>("log");
  const tabs: [Tab, string][] = [
    ["problems", problems.length > 0 ? `Problems (${problems.length})` : "Problems"],
    ["log", "Log"],
    ["settings", "Settings"],
  ];
  return (
    <section className="panel" aria-label="Plugin panel">
      <div className="panel-tabs" role="tablist">
        {tabs.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`panel-tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            className={`panel-tab${id === "problems" && problems.length > 0 ? " panel-tab-bad" : ""}`}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div
        className="panel-body"
        role="tabpanel"
        id={`panel-${tab}`}
        aria-labelledby={`panel-tab-${tab}`}
      >
        {tab === "problems" ? (
          problems.length === 0 ? (
            <p className="panel-empty">
              No problems. Bundle errors and runtime faults show here and in the code.
            </p>
          ) : (
            <ul className="panel-problems">
              {problems.map((p, i) => (
                <li key={i}>
                  <button type="button" className="panel-problem" onClick={() => onOpenProblem(p)}>
                    <span className="panel-where">
                      {p.file ?? p.source}
                      {p.line ? `:${p.line}${p.column ? `:${p.column}` : ""}` : ""}
                    </span>
                    <span>{p.title}</span>
                  </button>
                </li>
              ))}
            </ul>
          )
        ) : tab === "log" ? (
          <LogPanel plugin={plugin} />
        ) : (
          <ConfigForm plugin={plugin} onSaved={onConfigSaved} />
        )}
      </div>
    </section>
  );
}

/** Before a plugin is picked: what the panel will hold, so the space is not a blank box. */
export function EmptyBottomPanel() {
  return (
    <section className="panel panel-placeholder" aria-labelledby="panel-placeholder-title">
      <h2 id="panel-placeholder-title" className="panel-heading">
        Problems, log and settings
      </h2>
      <p className="panel-empty">
        Pick a plugin: its problems, its live log and its settings will appear here.
      </p>
    </section>
  );
}
