/** The installed plugins, each with its state; picking one opens it in the editor. */
import type { PluginEntry } from "../../../main/bridge/contract.ts";

const STATE: Record<PluginEntry["status"], string> = {
  active: "active",
  disabled: "disabled",
  failed: "failed to load",
  errored: "stopped after faults",
};

export function PluginPicker({
  plugins,
  active,
  onPick,
}: {
  plugins: PluginEntry[];
  active: string | null;
  onPick(name: string): void;
}) {
  return (
    <div className="side-section">
      <h2 className="side-title">Plugins</h2>
      {plugins.length === 0 ? (
        <p className="side-empty">No plugins yet. Start one with New plugin.</p>
      ) : (
        <ul className="plugin-list">
          {plugins.map((p) => {
            const broken =
              p.status === "failed" || p.status === "errored" || p.reloadError !== null;
            return (
              <li key={p.name}>
                <button
                  type="button"
                  className="plugin-item"
                  title={p.name}
                  aria-current={active === p.name ? "true" : undefined}
                  onClick={() => onPick(p.name)}
                >
                  <span
                    className={`dot plugin-dot plugin-${broken ? "bad" : p.status}`}
                    aria-hidden="true"
                  />
                  <span className="plugin-item-name">{p.name}</span>
                  <span className="visually-hidden">
                    , {p.reloadError ? "last edit failed" : STATE[p.status]}
                  </span>
                  <span className="plugin-item-source">
                    {p.source === "global" ? "global" : "project"}
                  </span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
