/**
 * Whether a failed call means the server went away (so the connection restarts with backoff)
 * rather than that this one call failed. A stdio server's exit closes its transport; a streamable
 * HTTP server that goes away only shows in failing requests: refused or reset connections, a
 * gateway that cannot reach it, or (restarted) a server that no longer knows our session.
 */
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ChannelClosedError } from "./call-channel.ts";

export function isConnectionLost(err: unknown): boolean {
  if (err instanceof ChannelClosedError) return true;
  if (err instanceof StreamableHTTPError) {
    const code = err.code ?? 0;
    // The spec's answer to an unknown session is 404; some servers (server-everything) say 400.
    return (
      code === 404 ||
      code === 502 ||
      code === 503 ||
      code === 504 ||
      (code === 400 && /session/i.test(err.message))
    );
  }
  if (!(err instanceof Error)) return false;
  // undici: "fetch failed" with the socket's error (ECONNREFUSED, ECONNRESET, ENOTFOUND…) as cause.
  if (err instanceof TypeError && err.message === "fetch failed") return true;
  return err.message === "Not connected";
}

/** One line for a person: the message, with the socket's error code when fetch hides it. */
export function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err).split("\n")[0];
  const cause = (err as { cause?: unknown }).cause;
  const code =
    cause && typeof cause === "object" && "code" in cause && typeof cause.code === "string"
      ? cause.code
      : undefined;
  const text = err.message.split("\n")[0];
  return code && !text.includes(code) ? `${text} (${code})` : text;
}
