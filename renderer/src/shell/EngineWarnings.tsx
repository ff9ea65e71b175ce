/**
 * Warnings the engine pushes (`engine/warning`: broken configuration, as a problem shown in the
 * line the CLI prints), each one dismissible. Every reload reports a plugin's warnings again: a
 * text already shown or dismissed is not repeated. Installing a marketplace can bring half a dozen
 * at once; beyond two, the newest shows and the others fold into one line that opens them, so the
 * view below is not pushed off the screen. None is dropped unseen.
 */
import { useId, useRef, useState } from "react";
import { formatProblem } from "../../../main/host/problem.ts";
import { useBridgeEvent } from "../bridge/hooks.ts";
import { CloseIcon } from "../ui/icons.tsx";

interface Warning {
  id: number;
  text: string;
}

/** Shown whole up to this many; more fold. */
const SHOWN_OPEN = 2;
/** Kept at most (the oldest go first). */
const MAX_KEPT = 50;
let nextId = 1;

export function EngineWarnings() {
  const [warnings, setWarnings] = useState<Warning[]>([]);
  const [open, setOpen] = useState(false);
  const dismissed = useRef(new Set<string>());
  const listId = useId();
  useBridgeEvent("engine/warning", (problem) => {
    const text = formatProblem(problem);
    if (dismissed.current.has(text)) return;
    setWarnings((ws) =>
      ws.some((w) => w.text === text) ? ws : [...ws, { id: nextId++, text }].slice(-MAX_KEPT),
    );
  });
  if (warnings.length === 0) return null;
  const dismiss = (gone: Warning[]) => {
    for (const w of gone) dismissed.current.add(w.text);
    setWarnings((ws) => ws.filter((w) => !gone.includes(w)));
  };
  const folded = warnings.length > SHOWN_OPEN && !open;
  const shown = folded ? warnings.slice(-1) : warnings;
  return (
    <div className="engine-warnings">
      <ul className="engine-warnings-list" id={listId} aria-label="Engine warnings">
        {shown.map((w) => (
          <li key={w.id} className="banner banner-warn">
            <span>
              <strong>Engine warning:</strong> {w.text}
            </span>
            <button
              type="button"
              className="icon-button"
              aria-label="Dismiss warning"
              onClick={() => dismiss([w])}
            >
              <CloseIcon />
            </button>
          </li>
        ))}
      </ul>
      {warnings.length > SHOWN_OPEN ? (
        <div className="engine-warnings-more">
          <button
            type="button"
            className="link-button"
            aria-expanded={open}
            aria-controls={listId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? "Show only the newest warning" : `${warnings.length - 1} more engine warnings`}
          </button>
          <button type="button" className="link-button" onClick={() => dismiss(warnings)}>
            Dismiss all {warnings.length}
          </button>
        </div>
      ) : null}
    </div>
  );
}
