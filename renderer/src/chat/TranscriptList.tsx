/**
 * The transcript as a virtualized list of turns (@tanstack/react-virtual): only the turns on
 * screen are in the DOM, so a 2,000-message session stays smooth. It follows the bottom while
 * the view is at the bottom, and leaves the scroll alone once the person scrolls up.
 */
import { defaultRangeExtractor, useVirtualizer, type Range } from "@tanstack/react-virtual";
import { useEffect, useLayoutEffect, useRef, type ReactNode } from "react";
import { estimateTurnHeight } from "./estimate.ts";
import type { Turn } from "./transcript.ts";
import { TurnView, type TurnActions } from "./TurnView.tsx";

export function TranscriptList({
  turns,
  actions,
  empty,
}: {
  turns: Turn[];
  actions: TurnActions;
  empty: ReactNode;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** The scroller's width, kept by a ResizeObserver: reading clientWidth per estimate forced layouts. */
  const width = useRef(0);
  /**
   * A saved history just arrived with the view at the bottom: its last turns are drawn at once.
   * Otherwise the first render would draw the top turns (the scroll is still at 0), only to
   * throw them away when the view jumps to the end.
   */
  const fromEnd = useRef(false);
  const drawn = useRef(0);
  if (drawn.current === 0 && turns.length > 1 && atBottom.current) fromEnd.current = true;
  const virtualizer = useVirtualizer({
    count: turns.length,
    getScrollElement: () => scroller.current,
    // From each turn's content: a flat guess made the scrollbar and the view jump while scrolling up.
    estimateSize: (i) => estimateTurnHeight(turns[i], width.current),
    overscan: 4,
    getItemKey: (i) => turns[i].id,
    rangeExtractor: (range) => {
      if (fromEnd.current && range.endIndex < range.count - 1) return lastRows(range);
      fromEnd.current = false;
      return defaultRangeExtractor(range);
    },
  });

  // Follow the newest content (new turns, streamed text, measured rows) while the person has
  // not scrolled away from the bottom; a render caused by their own scrolling moves nothing.
  const totalSize = virtualizer.getTotalSize();
  useLayoutEffect(() => {
    drawn.current = turns.length;
    const el = scroller.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [turns, totalSize]);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const onScroll = () => {
      atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
      if (!atBottom.current) fromEnd.current = false;
    };
    // Capture: runs before the virtualizer's own listener re-renders the list.
    el.addEventListener("scroll", onScroll, { passive: true, capture: true });
    const resized = new ResizeObserver(([entry]) => (width.current = entry.contentRect.width));
    resized.observe(el);
    return () => {
      el.removeEventListener("scroll", onScroll, { capture: true });
      resized.disconnect();
    };
  }, []);

  return (
    <div ref={scroller} className="transcript" role="region" aria-label="Conversation" tabIndex={0}>
      {turns.length === 0 ? (
        empty
      ) : (
        <div className="transcript-inner" style={{ height: totalSize }}>
          {virtualizer.getVirtualItems().map((row) => (
            <div
              key={row.key}
              ref={virtualizer.measureElement}
              data-index={row.index}
              className="transcript-row"
              style={{ transform: `translateY(${row.start}px)` }}
            >
              <TurnView
                turn={turns[row.index]}
                actions={actions}
                last={row.index === turns.length - 1}
              />
            </div>
          ))}
        </div>
      )}
    </div>
  );
}

/** As many rows as `range` holds (with its overscan), taken from the end of the list. */
function lastRows(range: Range): number[] {
  const rows = range.endIndex - range.startIndex + 1 + range.overscan;
  const from = Math.max(0, range.count - rows);
  return Array.from({ length: range.count - from }, (_, k) => from + k);
}
