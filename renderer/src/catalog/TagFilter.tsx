/**
 * The catalog's tags as toggle chips (most used first): one at a time narrows the list, "All"
 * clears it. The first few show; "More tags" shows the rest.
 */
import { useState } from "react";

const SHOWN = 10;

export function TagFilter({
  tags,
  value,
  onChange,
}: {
  tags: string[];
  value: string | null;
  onChange(tag: string | null): void;
}) {
  const [all, setAll] = useState(false);
  if (tags.length === 0) return null;
  const visible = all ? tags : tags.slice(0, SHOWN);
  // The chosen tag stays in view even when it is one of the hidden ones (picked on a card).
  if (value !== null && !visible.includes(value)) visible.push(value);
  return (
    <div className="tag-filter" role="group" aria-label="Filter by tag">
      <button
        type="button"
        className="chip"
        aria-pressed={value === null}
        onClick={() => onChange(null)}
      >
        All
      </button>
      {visible.map((t) => (
        <button
          key={t}
          type="button"
          className="chip"
          aria-pressed={value === t}
          onClick={() => onChange(value === t ? null : t)}
        >
          {t}
        </button>
      ))}
      {tags.length > SHOWN ? (
        <button
          type="button"
          className="link-button tag-filter-more"
          aria-expanded={all}
          onClick={() => setAll(!all)}
        >
          {all ? "Fewer tags" : `${tags.length - SHOWN} more tags`}
        </button>
      ) : null}
    </div>
  );
}
