/**
 * Install links: `islet://install?source=…&ref=…&subpath=…` (the desktop app) and `islet serve`'s
 * `/install?…`. Any web page can make one, so this is stricter than Add from URL, which a person
 * types: only a remote git repository (https, http to this computer, ssh, owner/repo) — never a
 * folder, file://, git://, a transport helper, credentials, or anything git could read as an
 * option. A link only fills in a dialog: the person confirms, and the pack's own consent follows.
 */
import {
  GITHUB_SHORT,
  SCP_LIKE,
  checkRef,
  checkSubpath,
  gitFromUrl,
  hasControl,
} from "./source.ts";
import { PackError } from "./types.ts";

export interface InstallLink {
  /** The repository as it will be cloned (owner/repo becomes its GitHub URL). */
  source: string;
  ref?: string;
  subpath?: string;
}

export type LinkCheck = { ok: true; link: InstallLink } | { ok: false; error: string };

export const LINK_PARAMS = ["source", "ref", "subpath"] as const;
/** The longest query a link may carry; each parameter's own limit fits inside. */
export const MAX_LINK_QUERY = 4096;
const MAX = { source: 1000, ref: 200, subpath: 500 } as const;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);
/** Scheme-like words a scp-like `user@host:path` must not use as its host. */
const SCHEME_WORDS = new Set(["file", "ext", "fd", "git", "http", "https", "ssh", "javascript"]);

const show = (v: string) => JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v);

const refuse = (param: string, what: string): never => {
  throw new PackError(`${param}: ${what}`);
};

/** Percent-decoded once more, so `%2e%2e` counts as `..` wherever git or a server would decode it. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function checkSource(raw: string): string {
  const text = raw.trim();
  if (text === "") refuse("source", "missing: the link must name a git repository");
  if (text.length > MAX.source) refuse("source", `longer than ${MAX.source} characters`);
  if (/^[a-z][a-z0-9+.-]*::/i.test(text))
    refuse("source", "git transport helpers (ext::, fd::) are not allowed");
  if (hasControl(text) || /\s/.test(text) || hasControl(decoded(text)))
    refuse("source", `${show(text)} contains spaces or control characters`);
  if (text.startsWith("-") || decoded(text).startsWith("-"))
    refuse("source", `${show(text)} starts with "-", which git would read as an option`);
  if (text.includes("\\") || decoded(text).includes("\\"))
    refuse("source", `${show(text)} contains a backslash`);
  if (decoded(text).split(/[/:]/).includes(".."))
    refuse("source", `${show(text)} contains a ".." path segment`);

  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme !== undefined) {
    if (scheme === "file")
      refuse(
        "source",
        "file:// names a folder on this computer; a link can only name a remote repository",
      );
    if (scheme !== "https" && scheme !== "http" && scheme !== "ssh")
      refuse(
        "source",
        `${scheme}:// is not allowed in a link (use https://, ssh:// or git@host:path)`,
      );
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return refuse("source", `${show(text)} is not a valid URL`);
    }
    if (url.password || (scheme !== "ssh" && url.username))
      refuse(
        "source",
        "the URL carries a user name or password; a link must not carry credentials",
      );
    if (scheme === "http" && !LOOPBACK.has(url.hostname))
      refuse(
        "source",
        "http:// is allowed only to this computer (127.0.0.1 or localhost); use https://",
      );
    try {
      return gitFromUrl(text).url;
    } catch (err) {
      return refuse("source", (err as Error).message);
    }
  }
  const scp = SCP_LIKE.exec(text);
  if (scp) {
    const [, user, host] = scp;
    if (!user || user.startsWith("-") || SCHEME_WORDS.has(host.toLowerCase()))
      refuse("source", `${show(text)} is not a git URL a link can name (git@host:path for ssh)`);
    return text;
  }
  if (GITHUB_SHORT.test(text)) return `https://github.com/${text.replace(/\.git$/, "")}.git`;
  return refuse(
    "source",
    `${show(text)} is not a git URL a link can name (https://…, ssh://…, git@host:path or owner/repo)`,
  );
}

/** The values of a link, checked; throws a one-line PackError naming the parameter. */
export function checkLinkValues(values: {
  source: string;
  ref?: string;
  subpath?: string;
}): InstallLink {
  const source = checkSource(values.source);
  const ref = values.ref?.trim() || undefined;
  if (ref !== undefined) {
    if (ref.length > MAX.ref) refuse("ref", `longer than ${MAX.ref} characters`);
    checkRef(ref, "ref");
  }
  const sub = values.subpath?.trim() || undefined;
  let subpath: string | undefined;
  if (sub !== undefined) {
    if (sub.length > MAX.subpath) refuse("subpath", `longer than ${MAX.subpath} characters`);
    if (sub.includes("\\")) refuse("subpath", `${show(sub)} contains a backslash; use "/"`);
    if (decoded(sub).split("/").includes(".."))
      refuse("subpath", `${show(sub)} leads outside the repository (..)`);
    subpath = checkSubpath(sub, "subpath");
  }
  return { source, ...(ref ? { ref } : {}), ...(subpath ? { subpath } : {}) };
}

/** A link's query (`source=…&ref=…&subpath=…`, with or without `?`): the pack, or why not. */
export function checkInstallLink(query: string): LinkCheck {
  try {
    const text = query.startsWith("?") ? query.slice(1) : query;
    if (text.length > MAX_LINK_QUERY)
      throw new PackError(`the link is too long (over ${MAX_LINK_QUERY} characters)`);
    const params = new URLSearchParams(text);
    const seen = new Set<string>();
    for (const key of params.keys()) {
      if (!(LINK_PARAMS as readonly string[]).includes(key))
        throw new PackError(
          `unknown parameter ${show(key)}: a link takes only source, ref and subpath`,
        );
      if (seen.has(key)) throw new PackError(`${key}: given more than once`);
      seen.add(key);
    }
    const link = checkLinkValues({
      source: params.get("source") ?? "",
      ref: params.get("ref") ?? undefined,
      subpath: params.get("subpath") ?? undefined,
    });
    return { ok: true, link };
  } catch (err) {
    if (err instanceof PackError) return { ok: false, error: err.message };
    throw err;
  }
}

/** The query of a link as the page gets it (`islet serve` redirects to `/#install?<query>`). */
export function linkQueryOf(link: InstallLink): string {
  const params = new URLSearchParams({ source: link.source });
  if (link.ref) params.set("ref", link.ref);
  if (link.subpath) params.set("subpath", link.subpath);
  return params.toString();
}
