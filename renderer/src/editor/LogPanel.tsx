/**
 * The plugin's log, live: its recent lines, then each new one (`editor/watchLog` subscribes this
 * window alone; leaving the plugin unsubscribes).
 */
import { useEffect, useRef, useState } from "react";
import type { EventPayload } from "../../../main/bridge/contract.ts";
import { useBridge } from "../bridge/context.tsx";
import { errorMessage, useBridgeEvent, useReconnected } from "../bridge/hooks.ts";

type Line = EventPayload<"plugins/log">["line"];
const KEEP = 1000;

export function LogPanel({ plugin }: { plugin: string }) {
  const bridge = useBridge();
  const [lines, setLines] = useState<Line[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [generation, setGeneration] = useState(0);
  const end = useRef<HTMLLIElement>(null);

  useEffect(() => {
    let live = true;
    bridge.call("editor/watchLog", { name: plugin }).then(
      (r) => live && (setLines(r.lines), setError(null)),
      (e: unknown) => live && setError(errorMessage(e)),
    );
    return () => {
      live = false;
      bridge.call("editor/unwatchLog", { name: plugin }).catch(() => undefined);
    };
  }, [bridge, plugin, generation]);
  // A reload that replaced the plugin (or a reconnect) needs the subscription made again.
  useReconnected(() => setGeneration((g) => g + 1));
  useBridgeEvent("plugins/log", (e) => {
    if (e.name === plugin) setLines((l) => [...l.slice(-(KEEP - 1)), e.line]);
  });
  useEffect(() => {
    // Braces: scrollIntoView returns a promise in new Chromium, which React would call as cleanup.
    void end.current?.scrollIntoView({ block: "nearest" });
  }, [lines]);

  if (error) return <p className="panel-empty error-text">{error}</p>;
  if (lines.length === 0)
    return (
      <p className="panel-empty">
        Nothing logged yet. <code>console.log</code> in the plugin writes here.
      </p>
    );
  return (
    <ol className="log-lines" aria-label={`Log of ${plugin}`}>
      {lines.map((l, i) => (
        <li
          key={i}
          className={`log-line log-${l.level}`}
          ref={i === lines.length - 1 ? end : undefined}
        >
          <time dateTime={l.at}>{l.at.slice(11, 19)}</time>
          <span className="log-level">{l.level}</span>
          <span className="log-text">{l.text}</span>
        </li>
      ))}
    </ol>
  );
}
