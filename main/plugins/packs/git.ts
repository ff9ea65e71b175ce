/**
 * The git operations of packs: clone (with the auth chain), fetch an update into a staging copy,
 * local edits since install, and what changed between two commits. Every failure is a PackError
 * with one line; tokens never appear in it.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SimpleGitProgressEvent } from "simple-git";
import { authChain, type AuthAttempt } from "./auth.ts";
import { classifyGitFailure, gitReason, scrub } from "./git-errors.ts";
import { GitRunError, runGit } from "./git-run.ts";
import { looksLikeCommit, type GitSource } from "./source.ts";
import { PackError } from "./types.ts";

export interface GitContext {
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?(event: SimpleGitProgressEvent): void;
}

function hint(source: GitSource): string {
  if (source.transport === "ssh")
    return "add your key to the SSH agent (ssh-add) or check that it has access";
  return "set GIT_TOKEN (or GITHUB_TOKEN / GITLAB_TOKEN for their hosts), or store credentials with a git credential helper";
}

function failure(source: GitSource, what: string, message: string): PackError {
  const reason = gitReason(message);
  switch (classifyGitFailure(message)) {
    case "aborted":
      return new PackError(`${what} of ${source.url} was cancelled`);
    case "hostkey": {
      const port = /:(\d+)$/.exec(source.host)?.[1];
      const login = `${source.user ? `${source.user}@` : ""}${source.host.replace(/:\d+$/, "")}`;
      return new PackError(
        `cannot ${what} ${source.url}: ssh does not know the host key of ${source.host}: run \`ssh -T ${port ? `-p ${port} ` : ""}${login}\` once to check and accept it`,
      );
    }
    case "missing":
      return new PackError(`no git repository at ${source.url}: ${reason}`);
    case "unreachable":
      return new PackError(`cannot reach ${source.url}: ${reason}`);
    default:
      return new PackError(`git could not ${what} ${source.url}: ${reason}`);
  }
}

/**
 * Runs `op` with each attempt of the auth chain until one is not refused; an attempt that worked
 * before (`known`) is tried alone.
 */
async function withAuth<T>(
  source: GitSource,
  ctx: GitContext,
  what: string,
  op: (attempt: AuthAttempt) => Promise<T>,
  known?: AuthAttempt,
): Promise<{ value: T; attempt: AuthAttempt }> {
  const chain = authChain(source, ctx.env);
  const attempts = known ? [known] : chain.attempts;
  const secrets = chain.attempts.flatMap((a) => a.secrets);
  const tried: string[] = [];
  for (const attempt of attempts) {
    try {
      return { value: await op(attempt), attempt };
    } catch (err) {
      if (!(err instanceof GitRunError)) throw err;
      const message = scrub(err.message, secrets);
      if (classifyGitFailure(message) !== "auth") throw failure(source, what, message);
      tried.push(attempt.label);
    }
  }
  const notes = chain.notes.length ? `; ${chain.notes.join("; ")}` : "";
  throw new PackError(
    `cannot ${what} ${source.url}: access denied or the repository does not exist (tried ${tried.join(", ")}${notes}): ${hint(source)}`,
  );
}

export async function headCommit(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  return (await runGit(["rev-parse", "HEAD"], { cwd: dir, env })).trim();
}

/**
 * Clones `source` into `dest` at `ref` (branch, tag or commit; default: the remote's default
 * branch). Returns the commit checked out and the credentials that worked.
 */
export async function cloneSource(
  source: GitSource,
  dest: string,
  ref: string | undefined,
  ctx: GitContext,
): Promise<{ commit: string; attempt: AuthAttempt }> {
  const parent = path.dirname(dest);
  await mkdir(parent, { recursive: true });
  const clone = (extra: string[]) => async (attempt: AuthAttempt) => {
    await rm(dest, { recursive: true, force: true });
    // --progress given here: simple-git would append it after the `--`, as a third path.
    await runGit(["clone", "--progress", ...extra, "--", source.url, dest], {
      cwd: parent,
      env: ctx.env,
      attempt,
      signal: ctx.signal,
      onProgress: ctx.onProgress,
    });
  };
  let attempt: AuthAttempt;
  try {
    ({ attempt } = await withAuth(source, ctx, "clone", clone(ref ? ["--branch", ref] : [])));
  } catch (err) {
    const refMissing = err instanceof PackError && /not found in upstream/i.test(err.message);
    if (!refMissing) throw err;
    if (!ref || !looksLikeCommit(ref))
      throw new PackError(`ref "${ref}" does not exist in ${source.url} (no such branch or tag)`);
    // A commit: clone the default branch, then check the commit out.
    ({ attempt } = await withAuth(source, ctx, "clone", clone([])));
    try {
      await runGit(["checkout", "--quiet", "--detach", ref], { cwd: dest, env: ctx.env });
    } catch {
      throw new PackError(
        `ref "${ref}" does not exist in ${source.url} (no such branch, tag or commit)`,
      );
    }
  }
  return { commit: await headCommit(dest, ctx.env), attempt };
}

/**
 * An update's staging copy: a local clone of the installed pack (objects hard-linked, so the old
 * commit is there for the diff), pointed at the real remote, with `ref` fetched. Returns the
 * commit the update would move to.
 */
export async function fetchIntoCopy(
  installed: string,
  staged: string,
  source: GitSource,
  ref: string | undefined,
  ctx: GitContext,
): Promise<string> {
  await mkdir(path.dirname(staged), { recursive: true });
  const local = { cwd: path.dirname(staged), env: ctx.env };
  try {
    await runGit(["clone", "--quiet", "--local", "--no-checkout", "--", installed, staged], local);
    await runGit(["remote", "set-url", "origin", source.url], { cwd: staged, env: ctx.env });
  } catch (err) {
    throw new PackError(
      `cannot copy the installed ${installed} for the update: ${gitReason((err as Error).message)}`,
    );
  }
  const target = ref ?? "HEAD";
  try {
    await withAuth(source, ctx, "fetch from", (attempt) =>
      runGit(["fetch", "--progress", "--no-tags", "origin", target], {
        cwd: staged,
        env: ctx.env,
        attempt,
        signal: ctx.signal,
        onProgress: ctx.onProgress,
      }),
    );
  } catch (err) {
    if (err instanceof PackError && /couldn't find remote ref/i.test(err.message))
      throw new PackError(
        `ref "${target}" no longer exists in ${source.url}: reinstall with another --ref`,
      );
    throw err;
  }
  return (await runGit(["rev-parse", "FETCH_HEAD^{commit}"], { cwd: staged, env: ctx.env })).trim();
}

/** Checks `commit` out in a staging copy, on its branch when it was on one. */
export async function checkoutCommit(
  dir: string,
  commit: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  let branch = "";
  try {
    branch = (
      await runGit(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd: dir, env })
    ).trim();
  } catch {
    // detached (a tag or a commit was installed)
  }
  const args = branch
    ? ["checkout", "--quiet", "--force", "-B", branch, commit]
    : ["checkout", "--quiet", "--force", "--detach", commit];
  await runGit(args, { cwd: dir, env });
}

/** Vendored dependencies and the sidecar are not edits: git is told to ignore them. */
export async function excludeIslands(dir: string): Promise<void> {
  const info = path.join(dir, ".git", "info");
  await mkdir(info, { recursive: true });
  await writeFile(path.join(info, "exclude"), "# written by islet\nnode_modules/\n/.origin.yaml\n");
}

/** Files changed in the installed copy since install (git status lines, e.g. " M a/index.ts"). */
export async function localEdits(dir: string, env: NodeJS.ProcessEnv): Promise<string[]> {
  let out: string;
  try {
    out = await runGit(
      ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignore-submodules"],
      {
        cwd: dir,
        env,
      },
    );
  } catch (err) {
    throw new PackError(
      `cannot tell whether ${dir} was edited: ${gitReason((err as Error).message)} (pass --force to replace it anyway)`,
    );
  }
  const entries: string[] = [];
  const parts = out.split("\0");
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (!entry) continue;
    entries.push(entry);
    if (entry[0] === "R" || entry[0] === "C") i++; // the rename's source follows
  }
  return entries;
}

export interface CommitSummary {
  hash: string;
  subject: string;
  author: string;
}

export type FileChange = { path: string; change: "added" | "modified" | "deleted" | "renamed" };

const spec = (subpath: string | undefined) => (subpath ? ["--", subpath] : []);

export async function commitsBetween(
  dir: string,
  from: string,
  to: string,
  subpath: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<CommitSummary[]> {
  const out = await runGit(
    ["log", "--max-count=500", "--format=%H%x1f%s%x1f%an%x1e", `${from}..${to}`, ...spec(subpath)],
    { cwd: dir, env },
  );
  return out
    .split("\x1e")
    .map((r) => r.trim())
    .filter(Boolean)
    .map((r) => {
      const [hash, subject, author] = r.split("\x1f");
      return { hash, subject, author };
    });
}

export async function filesBetween(
  dir: string,
  from: string,
  to: string,
  subpath: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<FileChange[]> {
  const out = await runGit(["diff", "--name-status", "-z", "-M", from, to, ...spec(subpath)], {
    cwd: dir,
    env,
  });
  const parts = out.split("\0");
  const files: FileChange[] = [];
  for (let i = 0; i + 1 < parts.length;) {
    const status = parts[i];
    if (!status) break;
    if (status[0] === "R" || status[0] === "C") {
      // Two paths follow: the source, then the new file.
      files.push({ path: parts[i + 2], change: status[0] === "R" ? "renamed" : "added" });
      i += 3;
      continue;
    }
    const change = status[0] === "A" ? "added" : status[0] === "D" ? "deleted" : "modified";
    files.push({ path: parts[i + 1], change });
    i += 2;
  }
  return files;
}
