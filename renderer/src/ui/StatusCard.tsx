/**
 * A card for something that runs (an MCP server, an on-demand plugin): its name, status badge
 * and kind tag; a description, where it is declared, why it failed; what the caller adds; and a
 * footer of actions.
 */
import { useId, type ReactNode } from "react";
import { Callout } from "./Callout.tsx";
import "./cards.css";
import { Shown } from "./Shown.tsx";

export type CardStatus = { label: string; badge: string; hint: string };

export function StatusCard({
  name,
  look,
  status,
  tag,
  stats,
  description,
  source,
  problem,
  children,
  actions,
}: {
  name: string;
  /** The card's edge colour. */
  look: "active" | "failed" | "disabled";
  status: CardStatus;
  tag: { label: string; title: string };
  stats?: ReactNode;
  description?: string;
  /** Where it is declared (a file), shown in monospace. */
  source: { text: string; title: string };
  problem?: { title: string; text: string; bad: boolean };
  children?: ReactNode;
  actions: ReactNode;
}) {
  const titleId = useId();
  return (
    <article className={`plugin-card status-card plugin-${look}`} aria-labelledby={titleId}>
      <header className="plugin-head">
        <h3 id={titleId} className="plugin-name">
          {name}
        </h3>
        <span className={`badge badge-${status.badge}`} title={status.hint}>
          <span className="dot" aria-hidden="true" />
          {status.label}
        </span>
        <span className="tag" title={tag.title}>
          {tag.label}
        </span>
        {stats ? <span className="plugin-stats">{stats}</span> : null}
      </header>
      {description ? (
        <p className="plugin-desc">
          <Shown text={description} />
        </p>
      ) : null}
      <p className="plugin-desc card-source" title={source.title}>
        {source.text}
      </p>
      {problem ? (
        <Callout tone={problem.bad ? "bad" : "warn"} title={problem.title}>
          <p className="error-text">{problem.text}</p>
        </Callout>
      ) : null}
      {children}
      <footer className="plugin-foot card-actions">{actions}</footer>
    </article>
  );
}
