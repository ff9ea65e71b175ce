// `islet://install?source=…&ref=…&subpath=…` links: Islet registers the scheme; macOS hands a
// link to the running app as `open-url`, Windows and Linux start a second instance with the link
// in its argv, which the single-instance lock turns into `second-instance` here. The link's query
// goes to the page, which asks the engine to check it (main/packs/link.ts) and asks the person.
// Only types come from 'electron': the glue runs under plain Node in its test.
import { resolve } from "node:path";
import type { App } from "electron";
import { MAX_LINK_QUERY } from "../packs/link.ts";

export const LINK_SCHEME = "islet";

/** The query of an `islet://install?…` link (`""` for none); null for anything else. */
export function installLinkQuery(href: string): string | null {
  if (!href.toLowerCase().startsWith(`${LINK_SCHEME}:`)) return null;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return null;
  }
  if (url.hostname.toLowerCase() !== "install" || !["", "/"].includes(url.pathname)) return null;
  // Cut just past the limit, so an over-long link is refused as too long rather than dropped.
  return url.search.slice(1, MAX_LINK_QUERY + 2);
}

/**
 * The link a launch was given: the first argument that is an `islet:` URL. A link is always one
 * argument; anything else on the command line is never read as part of it.
 */
export function linkArgument(argv: readonly string[]): string | null {
  return argv.find((a) => a.toLowerCase().startsWith(`${LINK_SCHEME}:`)) ?? null;
}

type LinkApp = Pick<App, "on" | "setAsDefaultProtocolClient">;

export interface LinkOptions {
  /** `process.defaultApp`: run as `electron path/to/app`, so the OS must start it that way. */
  defaultApp: boolean;
  execPath: string;
  /** This launch's argv (the app's script is argv[1] when `defaultApp`). */
  argv: readonly string[];
  /** A second launch or a link: bring the window forward. */
  focus(): void;
  /** An `islet:` link arrived: its query, or null when it is not an install link. */
  open(query: string | null, href: string): void;
}

/**
 * Registers the scheme and listens for links; returns the query of a link this launch was
 * started with (Windows and Linux), for the first window to open with.
 */
export function listenForInstallLinks(app: LinkApp, opts: LinkOptions): string | null {
  const registered = opts.defaultApp
    ? app.setAsDefaultProtocolClient(LINK_SCHEME, opts.execPath, [resolve(opts.argv[1] ?? ".")])
    : app.setAsDefaultProtocolClient(LINK_SCHEME);
  if (!registered) console.warn(`[islet] could not register ${LINK_SCHEME}:// links`);
  app.on("open-url", (event, href) => {
    event.preventDefault();
    opts.focus();
    opts.open(installLinkQuery(href), href);
  });
  app.on("second-instance", (_event, argv) => {
    opts.focus();
    const href = linkArgument(argv);
    if (href !== null) opts.open(installLinkQuery(href), href);
  });
  const first = linkArgument(opts.argv);
  return first === null ? null : installLinkQuery(first);
}
