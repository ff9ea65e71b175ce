/** The model's thinking: collapsed to one line, open while it streams so it can be followed. */
import { useState } from "react";
import { BrainIcon, ChevronIcon } from "./chat-icons.tsx";

export function Thinking({
  id,
  text,
  streaming,
}: {
  id: number;
  text: string;
  streaming: boolean;
}) {
  const [toggled, setToggled] = useState<boolean | null>(null);
  const open = toggled ?? streaming;
  const bodyId = `thinking-${id}`;
  return (
    <div className="thinking">
      <button
        type="button"
        className="thinking-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => setToggled(!open)}
      >
        <span className={`tool-chevron${open ? " open" : ""}`}>
          <ChevronIcon />
        </span>
        <BrainIcon />
        {streaming ? "Thinking…" : "Thought"}
        {!open ? <span className="thinking-gist">{text.slice(0, 120)}</span> : null}
      </button>
      <div id={bodyId} className="thinking-body" hidden={!open}>
        {text}
      </div>
    </div>
  );
}
