/** The editor's header: which plugin, where it lives, and its actions (enable, new, replay, save). */
import type { PluginEntry } from "../../../main/bridge/contract.ts";

export function EditorHeader({
  entry,
  enabled,
  onToggleEnabled,
  onNewPlugin,
  replaying,
  onToggleReplay,
  canSave,
  onSave,
}: {
  entry: PluginEntry | null;
  enabled: boolean;
  onToggleEnabled(): void;
  onNewPlugin(): void;
  replaying: boolean;
  onToggleReplay(): void;
  canSave: boolean;
  onSave(): void;
}) {
  return (
    <header className="view-header editor-header">
      <div>
        <h1 id="editor-title">Plugin editor</h1>
        <p className="view-subtitle">
          {entry ? (
            <>
              <span className="nowrap">{entry.name}</span> ·{" "}
              <span className="nowrap">{entry.source === "global" ? "Global" : "Project"}</span> ·{" "}
              <span className="path-inline">{entry.dir}</span>
            </>
          ) : (
            "Edit a plugin and the next turn uses it"
          )}
        </p>
      </div>
      <div className="toolbar">
        {entry ? (
          <label className="switch" title="A disabled plugin stays installed and runs no code">
            <input type="checkbox" role="switch" checked={enabled} onChange={onToggleEnabled} />
            <span className="switch-track" aria-hidden="true" />
            <span>Enabled</span>
          </label>
        ) : null}
        <button type="button" className="button" onClick={onNewPlugin}>
          New plugin
        </button>
        <button
          type="button"
          className="button"
          disabled={!entry}
          aria-pressed={replaying}
          onClick={onToggleReplay}
        >
          Try on a recorded turn
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={!canSave}
          onClick={onSave}
          title="Save (Ctrl+S)"
        >
          Save
        </button>
      </div>
    </header>
  );
}
