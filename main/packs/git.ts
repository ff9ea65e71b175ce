/**
 * The network side of packs' git: clone and fetch through the auth chain. Every failure is a
 * PackError with one line; tokens never appear in it. Local operations are in git-local.ts.
 */
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { SimpleGitProgressEvent } from "simple-git";
import { authChain, type AuthAttempt } from "./auth.ts";
import { classifyGitFailure, gitReason, scrub } from "./git-errors.ts";
import { fetchedHead, headCommit } from "./git-local.ts";
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
  if (/spawn git ENOENT/.test(message))
    return new PackError(`git was not found on PATH: install git to add packs from ${source.url}`);
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
    // --template= : no sample hooks or description written (and copied again by each update).
    await runGit(["clone", "--progress", "--template=", ...extra, "--", source.url, dest], {
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
      // Not --quiet: its one line spares simple-git's 50 ms wait for a silent process.
      await runGit(["checkout", "--detach", ref], { cwd: dest, env: ctx.env });
    } catch {
      throw new PackError(
        `ref "${ref}" does not exist in ${source.url} (no such branch, tag or commit)`,
      );
    }
  }
  return { commit: await headCommit(dest, ctx.env), attempt };
}

/**
 * Fetches `ref` (default: the remote's default branch) from the pack's URL into a staging copy
 * (see copyInstalled). Returns the commit it points at; `known` when that is the installed commit.
 */
export async function fetchUpdate(
  staged: string,
  source: GitSource,
  ref: string | undefined,
  known: string,
  ctx: GitContext,
): Promise<string> {
  const target = ref ?? "HEAD";
  try {
    // By URL rather than remote name: what .origin.yaml says is what is fetched.
    await withAuth(source, ctx, "fetch from", (attempt) =>
      runGit(["fetch", "--progress", "--no-tags", source.url, target], {
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
  // A branch (or the default one) names its commit; a tag may name a tag object: git peels it.
  const fetched = await fetchedHead(staged);
  if (fetched.object && !fetched.tag) return fetched.object;
  if (fetched.object === known) return known;
  return (await runGit(["rev-parse", "FETCH_HEAD^{commit}"], { cwd: staged, env: ctx.env })).trim();
}
