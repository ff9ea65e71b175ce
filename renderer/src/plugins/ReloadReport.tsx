/** What the last reload did: the Reload button's result, or a hot reload pushed by the engine. */
import type { ReloadResult } from "../../../main/bridge/contract.ts";
import { CloseIcon } from "../ui/icons.tsx";
import { problemParts, summarizeReload } from "./format.ts";

export interface ReloadActivity {
  /** "manual": a full reload (the Reload button, here or elsewhere); "hot": a file changed on disk. */
  kind: "manual" | "hot";
  reports: ReloadResult[];
  at: Date;
}

export function ReloadReport({
  activity,
  dirOf,
  onDismiss,
}: {
  activity: ReloadActivity;
  /** A plugin's folder, to shorten the paths in its error. */
  dirOf(name: string): string | undefined;
  onDismiss(): void;
}) {
  const { headline, failures } = summarizeReload(activity.reports, activity.kind === "hot");
  const tone = failures.length > 0 ? "warn" : "ok";
  return (
    <div className={`reload-report reload-${tone}`} role="status" aria-label="Reload result">
      <div className="reload-line">
        <span className={`dot dot-${tone}`} aria-hidden="true" />
        <strong>{headline}</strong>
        <time className="muted" dateTime={activity.at.toISOString()}>
          {activity.at.toLocaleTimeString()}
        </time>
        <button
          type="button"
          className="icon-button reload-dismiss"
          aria-label="Dismiss reload result"
          onClick={onDismiss}
        >
          <CloseIcon />
        </button>
      </div>
      {failures.length > 0 ? (
        <ul className="reload-failures">
          {failures.map((f) => {
            const first = f.problems?.[0];
            const { location, text } = first
              ? problemParts(first, dirOf(f.name))
              : { location: null, text: f.error ?? "no reason given" };
            return (
              <li key={f.name}>
                <strong>{f.name}</strong>: {location ? <code>{location}</code> : null} {text}
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
