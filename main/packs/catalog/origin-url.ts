/**
 * Git URLs as the catalog compares them: a catalog entry is "installed" when an installed pack's
 * `.origin.yaml` names the same repository, however either was spelled (https or ssh, with or
 * without credentials, `.git` or a trailing slash, `owner/repo` for GitHub).
 */

/** `owner/repo`: GitHub's short form, as `islet plugins add` takes it. */
const SHORT = /^([A-Za-z0-9_.-]+)\/([A-Za-z0-9_.-]+)$/;
/** `git@host:path` (scp-like ssh). */
const SCP = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\/\/)(.+)$/;
const SCHEMES = new Set(["https:", "http:", "ssh:", "git:", "file:", "git+ssh:", "ssh+git:"]);

/** Whether `text` names a git repository: a git URL, scp-like ssh, or `owner/repo`. */
export function isGitSource(text: string): boolean {
  return originKey(text) !== null;
}

function trimPath(p: string): string {
  let out = p.replace(/\/+$/, "");
  if (out.toLowerCase().endsWith(".git")) out = out.slice(0, -4);
  return out.replace(/\/+$/, "");
}

/**
 * `host/path` (or `file:///path`), lower-cased, without credentials, port defaults, `.git` or a
 * trailing slash; null when `url` is not a git source.
 */
export function originKey(url: string): string | null {
  const text = url.trim();
  if (text === "" || /\s/.test(text)) return null;
  const short = SHORT.exec(text);
  if (short && !text.startsWith(".")) return `github.com/${trimPath(text)}`.toLowerCase();
  if (!text.includes("://")) {
    const scp = SCP.exec(text);
    // "C:\…" is a Windows path, not a host called C.
    if (!scp || scp[1].length === 1) return null;
    const p = trimPath(scp[2].replace(/^\/+/, ""));
    return p === "" ? null : `${scp[1]}/${p}`.toLowerCase();
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return null;
  }
  if (!SCHEMES.has(parsed.protocol)) return null;
  const p = trimPath(decodeURIComponent(parsed.pathname));
  if (parsed.protocol === "file:") return p === "" ? null : `file://${p}`.toLowerCase();
  if (parsed.hostname === "" || p.replace(/^\/+/, "") === "") return null;
  return `${parsed.host}${p.startsWith("/") ? p : `/${p}`}`.toLowerCase();
}

/** The URL as it may be shown or saved: any user name and password taken out. */
export function withoutCredentials(url: string): string {
  if (!url.includes("://")) return url;
  try {
    const parsed = new URL(url);
    if (parsed.username === "" && parsed.password === "") return url;
    parsed.username = "";
    parsed.password = "";
    return parsed.toString();
  } catch {
    return url;
  }
}
