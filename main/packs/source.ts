/**
 * What `islet plugins add` was given (seed 000 "Install from git"): a git URL (https, http, ssh,
 * git://, file://, scp-like `git@host:path`), GitHub's `owner/repo`, or a local folder. Also the
 * pack's default name (the last URL segment without `.git` and an `islet-plugin-` prefix) and the
 * checks on names, refs and subpaths, so nothing a user typed reaches git as an option.
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { exists, isDirectory } from "../config/folder-walk.ts";
import { PackError } from "./types.ts";

export type GitTransport = "https" | "http" | "ssh" | "git" | "file";

export interface GitSource {
  kind: "git";
  /** The URL git is given: never with a password in it. */
  url: string;
  transport: GitTransport;
  /** Host (with port when given), "" for file://. */
  host: string;
  /** User name in the URL (ssh `git@`, https `user@`), if any. */
  user?: string;
  defaultName: string;
}

export interface LocalSource {
  kind: "local";
  /** Absolute folder. */
  path: string;
  defaultName: string;
}

export type PackSource = GitSource | LocalSource;

const NAME_PREFIX = "islet-plugin-";
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
export const SCP_LIKE = /^(?:([A-Za-z0-9._~-]+)@)?([A-Za-z0-9][A-Za-z0-9.-]*):(?!\/\/)(.+)$/;
export const GITHUB_SHORT = /^[A-Za-z0-9][A-Za-z0-9-]*\/[A-Za-z0-9._-]+$/;
const SCHEMES: Record<string, GitTransport> = {
  "https:": "https",
  "http:": "http",
  "ssh:": "ssh",
  "git:": "git",
  "file:": "file",
};

/** Control characters (a newline could smuggle a second line into git's credential protocol). */
export function hasControl(text: string): boolean {
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** A folder name for a pack: letters, digits, `.`, `_`, `-`; not starting with a dot. */
export function checkPackName(name: string, where = "--name"): string {
  if (!NAME_PATTERN.test(name) || name.endsWith(".git") || name.includes(".."))
    throw new PackError(
      `${where}: "${name}" is not a usable folder name (letters, digits, ".", "_" and "-", not starting with a dot)`,
    );
  return name;
}

/** The last segment of a URL or path, without `.git` and the `islet-plugin-` prefix. */
export function defaultPackName(urlOrPath: string): string {
  const trimmed = urlOrPath.replace(/[/\\]+$/, "");
  let last = trimmed.split(/[/\\:]/).pop() ?? "";
  if (last.endsWith(".git")) last = last.slice(0, -4);
  if (last.startsWith(NAME_PREFIX) && last.length > NAME_PREFIX.length)
    last = last.slice(NAME_PREFIX.length);
  return last;
}

export function gitFromUrl(input: string): GitSource {
  let u: URL;
  try {
    u = new URL(input);
  } catch {
    throw new PackError(`"${input}" is not a valid URL: check it, or give owner/repo or a folder`);
  }
  const transport = SCHEMES[u.protocol];
  if (!transport)
    throw new PackError(
      `"${input}": unsupported URL scheme ${u.protocol} (use https://, ssh://, git://, file:// or git@host:path)`,
    );
  if (u.password)
    throw new PackError(
      `the URL carries a password or token: remove it from the URL and set GIT_TOKEN (or use a git credential helper); a token in a URL ends up in .git/config and shell history`,
    );
  if (u.hostname.startsWith("-") || u.username.startsWith("-"))
    throw new PackError(`"${input}": a host or user name must not start with "-"`);
  if (transport !== "file" && !u.hostname)
    throw new PackError(`"${input}" has no host: expected e.g. https://github.com/owner/repo`);
  if (transport === "file" && u.hostname && u.hostname !== "localhost")
    throw new PackError(`"${input}": file:// URLs must name a local path (file:///path/to/repo)`);
  const repoPath = decodeURIComponent(u.pathname).replace(/\/+$/, "");
  if (repoPath === "" || repoPath === "/")
    throw new PackError(`"${input}" names no repository: expected a path after the host`);
  if (u.search || u.hash)
    throw new PackError(`"${input}": a git URL takes no ?query or #fragment; use --ref for a ref`);
  const url = transport === "file" ? new URL(`file://${u.pathname}`).href : u.href;
  return {
    kind: "git",
    url,
    transport,
    host: transport === "file" ? "" : u.host,
    ...(u.username ? { user: decodeURIComponent(u.username) } : {}),
    defaultName: defaultPackName(transport === "file" ? fileURLToPath(url) : repoPath),
  };
}

/** A work tree (its `.git` a folder, or a file for worktrees) or a bare repository. */
async function isGitRepository(folder: string): Promise<boolean> {
  if (await exists(path.join(folder, ".git"))) return true;
  const bare = ["HEAD", "objects", "refs"].map((part) => exists(path.join(folder, part)));
  return (await Promise.all(bare)).every(Boolean);
}

function expandHome(p: string, home: string | undefined): string {
  if (home && (p === "~" || p.startsWith("~/"))) return path.join(home, p.slice(1));
  return p;
}

/**
 * Parses what was typed; `cwd` resolves relative folders, `home` expands `~`. `remoteOnly` (an
 * install link) never reads it as a folder on this computer.
 */
export async function parseSource(
  input: string,
  opts: { cwd: string; home?: string; remoteOnly?: boolean },
): Promise<PackSource> {
  const text = input.trim();
  if (text === "") throw new PackError("no source given: a git URL, owner/repo or a folder");
  // Control characters and spaces never belong in a URL; a newline could smuggle a second line
  // into git's credential protocol.
  if (/\s/.test(text) && /^[a-z]+:\/\//i.test(text))
    throw new PackError(
      `"${JSON.stringify(text).slice(1, -1)}": a URL must not contain spaces or control characters`,
    );
  if (hasControl(text))
    throw new PackError(`the source contains control characters: ${JSON.stringify(text)}`);
  if (text.startsWith("-")) throw new PackError(`"${text}" looks like an option, not a source`);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return gitFromUrl(text);
  if (/^[a-z][a-z0-9+.-]*::/i.test(text))
    throw new PackError(`"${text}": git transport helpers (ext::, fd::) are not allowed`);

  const local =
    text.startsWith(".") ||
    text.startsWith("/") ||
    text.startsWith("~") ||
    /^[A-Za-z]:[\\/]/.test(text);
  const resolved = path.resolve(opts.cwd, expandHome(text, opts.home));
  if (opts.remoteOnly && local)
    throw new PackError(`"${text}": a link cannot install from a folder on this computer`);
  if (!opts.remoteOnly && (local || (await isDirectory(resolved)))) {
    if (!(await isDirectory(resolved)))
      throw new PackError(
        `no folder at ${resolved}: give an existing folder, a git URL or owner/repo`,
      );
    // A git repository on this disk installs as git: its commits, and `plugins update` pulls.
    if (await isGitRepository(resolved)) return gitFromUrl(pathToFileURL(resolved).href);
    return { kind: "local", path: resolved, defaultName: defaultPackName(resolved) };
  }
  const scp = SCP_LIKE.exec(text);
  if (scp) {
    const [, user, host, repoPath] = scp;
    return {
      kind: "git",
      url: text,
      transport: "ssh",
      host,
      ...(user ? { user } : {}),
      defaultName: defaultPackName(repoPath),
    };
  }
  if (GITHUB_SHORT.test(text)) {
    const url = `https://github.com/${text.replace(/\.git$/, "")}.git`;
    return {
      kind: "git",
      url,
      transport: "https",
      host: "github.com",
      defaultName: defaultPackName(text),
    };
  }
  throw new PackError(
    `"${text}" is neither a git URL (https://, ssh://, git@host:path, git://, file://), owner/repo, nor an existing folder`,
  );
}

/**
 * A ref (branch, tag or commit) as git accepts it, and never something git would read as an
 * option or a revision expression.
 */
export function checkRef(ref: string, where = "--ref"): string {
  const bad =
    ref === "" ||
    ref.startsWith("-") ||
    ref.startsWith("/") ||
    ref.endsWith("/") ||
    ref.endsWith(".") ||
    ref.endsWith(".lock") ||
    ref.includes("..") ||
    ref.includes("@{") ||
    ref.includes("//") ||
    ref === "@" ||
    hasControl(ref) ||
    /[\s~^:?*[\\]/.test(ref);
  if (bad) throw new PackError(`${where}: "${ref}" is not a valid branch, tag or commit name`);
  return ref;
}

/** A full or abbreviated commit hash. */
export function looksLikeCommit(ref: string): boolean {
  return /^[0-9a-f]{7,64}$/.test(ref);
}

/**
 * A subpath inside the repository, normalised to forward slashes; undefined for the whole
 * repository. Absolute paths and `..` are refused here; symlinks leading out are refused once the
 * files are there (see validate.ts).
 */
export function checkSubpath(subpath: string | undefined, where = "--subpath"): string | undefined {
  if (subpath === undefined) return undefined;
  const text = subpath.trim().replace(/\\/g, "/");
  if (text.startsWith("/") || /^[A-Za-z]:/.test(text) || text.startsWith("~"))
    throw new PackError(
      `${where}: "${subpath}" must be a path inside the repository, not an absolute one`,
    );
  const parts = text.split("/").filter((p) => p !== "" && p !== ".");
  if (parts.some((p) => p === ".."))
    throw new PackError(`${where}: "${subpath}" leads outside the repository (..)`);
  if (parts.some(hasControl))
    throw new PackError(`${where}: "${subpath}" contains control characters`);
  return parts.length ? parts.join("/") : undefined;
}

/** How the source is shown to the user and saved: the URL (never with credentials) or the folder. */
export function sourceLabel(source: PackSource): string {
  return source.kind === "git" ? source.url : source.path;
}
