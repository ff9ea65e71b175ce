/**
 * The hooks that ran in one turn, expandable under it: which plugin, at which point, whether its
 * condition matched (skipped otherwise), how long it took and what its result changed; above
 * them, what a hook running now says it is doing (its statusMessage), until it ends. A turn over
 * its prompt budget for extensions says how many it offered.
 */
import { useState } from "react";
import type { HookTraceEntry } from "../../../main/core/events.ts";
import { HOOK_TIMING_TABLE } from "../../../main/core/hook-timings.ts";
import { ChevronIcon, HookIcon } from "./chat-icons.tsx";
import { formatDuration } from "./format.ts";
import type { ExtensionsOffered } from "./transcript.ts";

/** What a result label means to a person (HookTraceEntry.changed). */
const CHANGE_LABEL: Record<string, string> = {
  message: "injected a message",
  messages: "rewrote the messages",
  notice: "showed a notice",
  disableTools: "disabled tools",
  appendSystem: "appended system text",
  skip: "skipped the request",
  "response.content": "rewrote the response",
  "response.skip": "dropped the response",
  arguments: "rewrote the arguments",
  block: "blocked the tool",
  output: "replaced the output",
  rejected: "was rejected",
  "error.retry": "asked for a retry",
  "error.skip": "skipped the error",
  "compaction.skip": "skipped compaction",
};

/** "offered 24 of 518 extensions; search used": what a turn over its prompt budget offered. */
export function offerLine(o: ExtensionsOffered): string {
  return `Offered ${o.offered} of ${o.total} extensions${o.searched ? "; search used" : ""}`;
}

export function HookTimeline({
  entries,
  offer,
  running = [],
  turnId,
}: {
  entries: HookTraceEntry[];
  offer?: ExtensionsOffered | null;
  /** Hooks running now that say what they do (statusMessage): shown until they end. */
  running?: { source: string; text: string }[];
  turnId: number;
}) {
  const [open, setOpen] = useState(false);
  const [withSkipped, setWithSkipped] = useState(false);
  const offered = offer ? <p className="hooks-offer">{offerLine(offer)}</p> : null;
  const now =
    running.length > 0 ? (
      <ul className="hooks-running" role="status" aria-label="Hooks running">
        {running.map((h, i) => (
          <li key={i} className="hook hook-running">
            <span className="hook-dot" aria-hidden="true" />
            <span className="hook-source">{h.source}</span>
            <span className="hook-status-text">{h.text}</span>
          </li>
        ))}
      </ul>
    ) : null;
  if (entries.length === 0)
    return now || offered ? (
      <section className="hooks" aria-label="Hook timeline">
        {now}
        {offered}
      </section>
    ) : null;
  const ran = entries.filter((e) => e.status !== "skipped").length;
  const skipped = entries.length - ran;
  // Skipped calls (condition false, once already fired) on request, unless nothing else ran.
  const shown = withSkipped || ran === 0 ? entries : entries.filter((e) => e.status !== "skipped");
  const failed = entries.filter((e) => e.status === "error").length;
  const changed = entries.filter((e) => e.changed.length > 0).length;
  const id = `hooks-${turnId}`;
  return (
    <section className="hooks" aria-label="Hook timeline">
      {now}
      <button
        type="button"
        className="hooks-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        <span className={`tool-chevron${open ? " open" : ""}`}>
          <ChevronIcon />
        </span>
        <HookIcon />
        <span>
          {entries.length} hook {entries.length === 1 ? "call" : "calls"} · {ran} ran
          {changed ? ` · ${changed} changed something` : ""}
          {failed ? ` · ${failed} failed` : ""}
        </span>
      </button>
      {offered}
      <ol id={id} className="hooks-list" hidden={!open}>
        {shown.map((e, i) => (
          <li key={i} className={`hook hook-${e.status}`}>
            <span className="hook-dot" aria-hidden="true" />
            <span className="hook-source">{e.source}</span>
            <span className="hook-timing">{HOOK_TIMING_TABLE[e.timing].label}</span>
            <span className={`hook-status hook-status-${e.status}`}>
              {e.status === "ok" ? "ran" : e.status === "skipped" ? "skipped" : "failed"}
            </span>
            <span className="hook-duration">{formatDuration(e.durationMs)}</span>
            <span className="hook-what">
              {e.changed.length
                ? e.changed.map((c) => CHANGE_LABEL[c] ?? c).join(", ")
                : e.status === "ok"
                  ? "changed nothing"
                  : ""}
              {e.detail ? (
                <span className="hook-detail">
                  {e.changed.length ? " — " : ""}
                  {e.detail}
                </span>
              ) : null}
            </span>
          </li>
        ))}
        {skipped > 0 && ran > 0 ? (
          <li className="hooks-more">
            <button
              type="button"
              className="link-button"
              onClick={() => setWithSkipped(!withSkipped)}
            >
              {withSkipped
                ? "Hide the skipped calls"
                : `Show ${skipped} skipped (condition not met)`}
            </button>
          </li>
        ) : null}
      </ol>
    </section>
  );
}
