/**
 * A Claude Code plugin's parts by kind: the loaded ones as chips, each other one on a line of its
 * own with its state (held back, excluded, not loaded, failed, unsupported) and why. Hooks are listed by the
 * card's own Hooks row (with matcher and command); only those not loaded are repeated here.
 */
import type { ReactNode } from "react";
import type { ExtensionComponent } from "../../../main/bridge/contract.ts";
import "./components.css";

const KINDS: readonly [ExtensionComponent["kind"], string][] = [
  ["command", "Commands"],
  ["skill", "Skills"],
  ["agent", "Agents"],
  ["hook", "Hooks not running"],
  ["mcp-server", "MCP servers"],
  ["output-style", "Output styles"],
  ["lsp-server", "LSP servers"],
];

const STATE_LABEL: Record<ExtensionComponent["state"], string> = {
  loaded: "Loaded",
  "held-back": "Held back",
  excluded: "Excluded",
  shadowed: "Not loaded",
  failed: "Failed",
  unsupported: "Not supported",
};

export function componentRows(components: readonly ExtensionComponent[]): [string, ReactNode][] {
  const rows: [string, ReactNode][] = [];
  for (const [kind, label] of KINDS) {
    const of = components.filter((c) => c.kind === kind);
    const loaded = kind === "hook" ? [] : of.filter((c) => c.state === "loaded");
    const other = of.filter((c) => c.state !== "loaded");
    if (loaded.length + other.length === 0) continue;
    rows.push([
      label,
      <div className="components">
        {loaded.length > 0 ? (
          <span className="chips">
            {loaded.map((c) => (
              <code key={c.name} className="chip chip-code">
                {c.name}
              </code>
            ))}
          </span>
        ) : null}
        {other.length > 0 ? (
          <ul className="component-list">
            {other.map((c) => (
              <li key={c.name}>
                <code className="chip chip-code">{c.name}</code>{" "}
                <span className={`component-state component-${c.state}`}>
                  {STATE_LABEL[c.state]}
                </span>
                {c.why ? <span className="component-why"> {c.why}</span> : null}
              </li>
            ))}
          </ul>
        ) : null}
      </div>,
    ]);
  }
  return rows;
}
