/**
 * Text from a model, a plugin, a server or a repository in a question, a consent or an activity
 * line: its control, bidi, zero-width and other invisible characters as markers such as ⟨ESC⟩ or
 * ⟨U+202E⟩ (main/core/visible-text.ts), each drawn as a tinted chip no text can pass for. React
 * escapes HTML, not a bidi override that reorders what is drawn or a tag character never drawn.
 */
import { useMemo } from "react";
import { visibleParts, visibleText } from "../../../main/core/visible-text.ts";
import "./shown.css";

const MARKER_TITLE = "A control or invisible character in the text, shown here";

/** Text that is already made visible (by `visibleText` or `visibleQuestion`): markers styled. */
export function Marked({ text }: { text: string }) {
  return (
    <>
      {visibleParts(text).map((part, i) =>
        part.marker ? (
          <span key={i} className="hidden-char" title={MARKER_TITLE}>
            {part.text}
          </span>
        ) : (
          part.text
        ),
      )}
    </>
  );
}

/** Text as received: made visible here (`lines` keeps its newlines and tabs). */
export function Shown({ text, lines = false }: { text: string; lines?: boolean }) {
  // A tool card re-renders as its turn streams; its arguments may be long.
  const shown = useMemo(() => visibleText(text, { lines }), [text, lines]);
  return <Marked text={shown} />;
}
