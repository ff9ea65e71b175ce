/** One Settings section: a heading, a line saying what it is for, and its rows. */
import type { ReactNode } from "react";

export function Section({
  id,
  title,
  description,
  children,
  actions,
}: {
  id: string;
  title: string;
  description: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="settings-section" aria-labelledby={`${id}-title`} id={id}>
      <header className="settings-section-head">
        <div>
          <h2 id={`${id}-title`}>{title}</h2>
          <p className="settings-section-desc">{description}</p>
        </div>
        {actions}
      </header>
      <div className="settings-card">{children}</div>
    </section>
  );
}

/** A label and its control side by side (stacked on narrow windows). */
export function Row({
  label,
  hint,
  children,
  htmlFor,
}: {
  label: ReactNode;
  hint?: ReactNode;
  children: ReactNode;
  htmlFor?: string;
}) {
  return (
    <div className="settings-row">
      <div className="settings-row-label">
        {htmlFor ? <label htmlFor={htmlFor}>{label}</label> : <span>{label}</span>}
        {hint ? <p className="settings-hint">{hint}</p> : null}
      </div>
      <div className="settings-row-control">{children}</div>
    </div>
  );
}

/** A radio group drawn as a segmented control (arrow keys move, as radios do). */
export function Segmented<T extends string>({
  name,
  label,
  value,
  options,
  onChange,
}: {
  name: string;
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange(value: T): void;
}) {
  return (
    <div className="segmented" role="radiogroup" aria-label={label}>
      {options.map((o) => (
        <label key={o.value} className="segmented-option">
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
          />
          <span>{o.label}</span>
        </label>
      ))}
    </div>
  );
}
