// Pure URL and path checks used by protocol.ts and security.ts. No 'electron' import, so the
// unit tests run under plain Node.
import { join, normalize, sep } from "node:path";

/** Resolves a request pathname inside `root`, or null when it would escape it. */
export function resolveInside(root: string, pathname: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (decoded.includes("\0")) return null;
  const relative = normalize(decoded).replace(/^[/\\]+/, "");
  const file = join(root, relative === "" ? "index.html" : relative);
  const rootWithSep = root.endsWith(sep) ? root : root + sep;
  return file.startsWith(rootWithSep) ? file : null;
}

/**
 * Serialized origin of a URL. WHATWG `URL.origin` is "null" for non-special schemes such as
 * app://, while Chromium gives our standard scheme a tuple origin: build it the same way.
 */
export function originOf(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    if (url.origin !== "null") return url.origin;
    return url.host === "" ? undefined : `${url.protocol}//${url.host}`;
  } catch {
    return undefined;
  }
}

/** An https URL without credentials: the only kind we hand to the OS browser. */
export function isExternalLink(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === "https:" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}

/** The dev server URL if it is plain http on loopback, else null. */
export function loopbackHttpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw === "") return null;
  try {
    const url = new URL(raw);
    const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
    return url.protocol === "http:" && loopback ? url.href : null;
  } catch {
    return null;
  }
}
