/** One tab per open file: a dot when it has unsaved changes, a close button. */
import { CloseIcon } from "../ui/icons.tsx";
import type { OpenFile } from "./useOpenFiles.ts";

export function EditorTabs({
  files,
  active,
  onSelect,
  onClose,
}: {
  files: OpenFile[];
  active: string | null;
  onSelect(path: string): void;
  onClose(path: string): void;
}) {
  if (files.length === 0) return <div className="tabs tabs-empty" />;
  return (
    <div className="tabs" role="group" aria-label="Open files">
      {files.map((f) => {
        const dirty = f.text !== f.saved;
        const name = f.path.split("/").pop() ?? f.path;
        return (
          <div key={f.path} className="tab" data-active={active === f.path || undefined}>
            <button
              type="button"
              className="tab-label"
              aria-current={active === f.path ? "true" : undefined}
              title={f.path}
              onClick={() => onSelect(f.path)}
              onAuxClick={(e) => e.button === 1 && onClose(f.path)}
            >
              {name}
              {dirty ? (
                <span className="dirty-dot" title="Unsaved changes">
                  <span className="visually-hidden"> (unsaved)</span>
                </span>
              ) : null}
            </button>
            <button
              type="button"
              className="icon-button tab-close"
              aria-label={`Close ${f.path}`}
              onClick={() => onClose(f.path)}
            >
              <CloseIcon />
            </button>
          </div>
        );
      })}
    </div>
  );
}
