/**
 * One line about the engine connection when it is not simply open: still connecting on start,
 * or lost and being retried (with what to do if it never comes back).
 */
import { useEffect, useState } from "react";
import type { ConnectionState } from "../bridge/index.ts";

export function ConnectionNotice({ state }: { state: ConnectionState }) {
  const [everOpen, setEverOpen] = useState(state === "open");
  useEffect(() => {
    if (state === "open") setEverOpen(true);
  }, [state]);

  if (state === "open") return null;
  if (state === "refused")
    return (
      <p className="banner banner-bad" role="alert">
        <span>
          <strong>This page's access token is no longer valid.</strong> <code>islet serve</code> was
          restarted: open the new URL it printed.
        </span>
      </p>
    );
  if (!everOpen)
    return (
      <p className="banner banner-info" role="status">
        <span className="spinner" aria-hidden="true" />
        Connecting to the Islet engine…
      </p>
    );
  return (
    <p className="banner banner-bad" role="alert">
      <span className="spinner" aria-hidden="true" />
      <span>
        <strong>Connection to Islet lost — reconnecting.</strong> If you stopped{" "}
        <code>islet serve</code>, start it again and open the new URL it prints.
      </span>
    </p>
  );
}
