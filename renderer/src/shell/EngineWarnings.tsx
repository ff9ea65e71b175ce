/**
 * Warnings the engine pushes (`engine/warning`: broken configuration, as a problem shown in the
 * line the CLI prints), each one dismissible. Every
 * reload reports a plugin's warnings again: a text already shown or dismissed is not repeated.
 */
import { useRef, useState } from "react";
import { formatProblem } from "../../../main/host/problem.ts";
import { useBridgeEvent } from "../bridge/hooks.ts";
import { CloseIcon } from "../ui/icons.tsx";

interface Warning {
  id: number;
  text: string;
}

const MAX_SHOWN = 4;
let nextId = 1;

export function EngineWarnings() {
  const [warnings, setWarnings] = useState<Warning[]>([]);
  const dismissed = useRef(new Set<string>());
  useBridgeEvent("engine/warning", (problem) => {
    const text = formatProblem(problem);
    if (dismissed.current.has(text)) return;
    setWarnings((ws) =>
      ws.some((w) => w.text === text) ? ws : [...ws, { id: nextId++, text }].slice(-MAX_SHOWN),
    );
  });
  if (warnings.length === 0) return null;
  return (
    <ul className="engine-warnings" aria-label="Engine warnings">
      {warnings.map((w) => (
        <li key={w.id} className="banner banner-warn">
          <span>
            <strong>Engine warning:</strong> {w.text}
          </span>
          <button
            type="button"
            className="icon-button"
            aria-label="Dismiss warning"
            onClick={() => {
              dismissed.current.add(w.text);
              setWarnings((ws) => ws.filter((x) => x.id !== w.id));
            }}
          >
            <CloseIcon />
          </button>
        </li>
      ))}
    </ul>
  );
}
