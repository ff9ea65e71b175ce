/** The catalog's tags as toggle chips: one at a time narrows the list, "All" clears it. */
export function TagFilter({
  tags,
  value,
  onChange,
}: {
  tags: string[];
  value: string | null;
  onChange(tag: string | null): void;
}) {
  if (tags.length === 0) return null;
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
      {tags.map((t) => (
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
    </div>
  );
}
