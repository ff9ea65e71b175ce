/**
 * A titled section of cards (the plugin browser's MCP servers and on-demand plugins): its count,
 * a line of intro, the listing's failure, what shows when it is empty, and one card a row.
 */
import type { ReactNode } from "react";
import { Callout } from "./Callout.tsx";
import "./cards.css";

export function CardSection<T>({
  id,
  title,
  intro,
  items,
  error,
  errorTitle,
  empty,
  keyOf,
  card,
}: {
  /** The heading's id (the section is labelled by it). */
  id: string;
  /** Also the list's accessible name. */
  title: string;
  intro?: ReactNode;
  items: T[] | undefined;
  error: string | null;
  errorTitle: string;
  empty?: ReactNode;
  keyOf: (item: T) => string;
  card: (item: T) => ReactNode;
}) {
  return (
    <section className="card-section" aria-labelledby={id}>
      <h2 id={id} className="section-title">
        {title}
        {items ? <span className="section-count">{items.length}</span> : null}
      </h2>
      {intro ? <p className="muted">{intro}</p> : null}
      {error ? (
        <Callout tone="bad" title={errorTitle} role="alert">
          <p>{error}.</p>
        </Callout>
      ) : null}
      {items && items.length === 0 ? empty : null}
      {items && items.length > 0 ? (
        <ul className="plugin-list" aria-label={title}>
          {items.map((item) => (
            <li key={keyOf(item)}>{card(item)}</li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
