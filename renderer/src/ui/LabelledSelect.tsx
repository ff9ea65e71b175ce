/**
 * A compact select with an icon and a label only screen readers hear (the chat header's and
 * Settings' pickers), and its one-line failure below. The options' labels are what shows.
 */
import type { ReactNode } from "react";
import "./select.css";

export type SelectOption = { value: string; label: string; title?: string };

export function LabelledSelect({
  icon,
  label,
  title,
  value,
  options,
  loading,
  failure,
  onFocus,
  onChange,
}: {
  icon: ReactNode;
  /** The accessible name, e.g. "Agent for this chat". */
  label: string;
  /** The hover text: what the current choice does. */
  title: string;
  value: string;
  /** Undefined while loading: the select shows `loading` and is disabled. */
  options: SelectOption[] | undefined;
  loading: string;
  failure: string | null;
  onFocus?: () => void;
  onChange: (value: string) => void;
}) {
  return (
    <div className="picker">
      <label className="picker-field" title={title}>
        {icon}
        <span className="visually-hidden">{label}</span>
        <select
          className="picker-select"
          value={options ? value : ""}
          disabled={!options}
          onFocus={onFocus}
          onChange={(e) => onChange(e.target.value)}
        >
          {!options ? <option value="">{loading}</option> : null}
          {options?.map((o) => (
            <option key={o.value} value={o.value} title={o.title}>
              {o.label}
            </option>
          ))}
        </select>
      </label>
      {failure ? (
        <p className="picker-error" role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
