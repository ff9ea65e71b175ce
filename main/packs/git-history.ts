/**
 * What an update changes, for its question (and for choosing what to rebuild when the index
 * cannot tell): the commits (those touching the subpath, when the pack has one) and the files
 * changed in the whole repository, read by ONE `git log --name-status` rather than a `git log`
 * and a `git diff` (on a busy machine every git process waits its turn). The files are each
 * commit's changes folded into the net change from `from` to `to`. A range holding a merge asks
 * `git log` and `git diff` as before: a merge may keep what a side commit deleted, which folding
 * cannot tell.
 */
import { commitsBetween, filesBetween, type CommitSummary, type FileChange } from "./git-local.ts";
import { startGit } from "./git-run.ts";

const MAX_COMMITS = 500;

interface Change {
  status: string;
  path: string;
  /** A rename's or copy's source. */
  from?: string;
}

interface LoggedCommit extends CommitSummary {
  merge: boolean;
  changes: Change[];
}

function parseChanges(parts: string[]): Change[] {
  const out: Change[] = [];
  for (let i = 0; i < parts.length;) {
    const status = parts[i];
    if (!status) break;
    if (status[0] === "R" || status[0] === "C") {
      out.push({ status: status[0], from: parts[i + 1], path: parts[i + 2] });
      i += 3;
    } else {
      out.push({ status: status[0], path: parts[i + 1] });
      i += 2;
    }
  }
  return out;
}

function parseLog(out: string): LoggedCommit[] {
  const commits: LoggedCommit[] = [];
  for (const record of out.split("\x1e")) {
    if (!record) continue;
    const end = record.indexOf("\0");
    const [hash, parents, subject, author] = record.slice(0, end).split("\x1f");
    commits.push({
      hash,
      subject,
      author,
      merge: parents.trim().split(" ").length > 1,
      changes: parseChanges(
        record
          .slice(end + 1)
          .replace(/^\n/, "")
          .split("\0"),
      ),
    });
  }
  return commits;
}

/** Each commit's changes, oldest first, folded into what changed from the first to the last. */
export function foldChanges(commits: { changes: Change[] }[]): FileChange[] {
  // Per path: whether it was there before the first change to it, and is after the last.
  const state = new Map<string, { before: boolean; after: boolean; renamedFrom?: string }>();
  const touch = (path: string, before: boolean, after: boolean, renamedFrom?: string) => {
    const seen = state.get(path);
    state.set(path, {
      before: seen ? seen.before : before,
      after,
      ...(renamedFrom && !seen ? { renamedFrom } : {}),
    });
  };
  for (const { changes } of commits)
    for (const c of changes) {
      if (c.status === "R") {
        touch(c.from!, true, false);
        touch(c.path, false, true, c.from);
      } else if (c.status === "C" || c.status === "A") touch(c.path, false, true);
      else if (c.status === "D") touch(c.path, true, false);
      else touch(c.path, true, true);
    }
  // A rename's source is shown as the renamed file, as `git diff -M` shows it.
  const renamedAway = new Set(
    [...state.values()].flatMap((t) =>
      t.renamedFrom && t.after && !t.before ? [t.renamedFrom] : [],
    ),
  );
  const files: FileChange[] = [];
  for (const [path, s] of state) {
    const source = s.renamedFrom ? state.get(s.renamedFrom) : undefined;
    if (s.before && s.after) files.push({ path, change: "modified" });
    else if (s.after)
      files.push({ path, change: source?.before && !source.after ? "renamed" : "added" });
    else if (s.before && !renamedAway.has(path)) files.push({ path, change: "deleted" });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

const inSubpath = (file: string | undefined, subpath: string) =>
  file !== undefined && (file === subpath || file.startsWith(`${subpath}/`));

const LOG = [
  "log",
  "--topo-order",
  "--reverse",
  "-z",
  "--name-status",
  "-M",
  "--format=%x1e%H%x1f%P%x1f%s%x1f%an",
];

export type Changes = { commits: CommitSummary[]; files: FileChange[] };

async function summarize(
  out: string,
  dir: string,
  from: string,
  to: string,
  subpath: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<Changes> {
  const logged = parseLog(out);
  if (logged.some((c) => c.merge)) {
    const [commits, files] = await Promise.all([
      commitsBetween(dir, from, to, subpath, env),
      filesBetween(dir, from, to, undefined, env),
    ]);
    return { commits, files };
  }
  const commits = logged
    .filter(
      (c) =>
        !subpath ||
        c.changes.some((ch) => inSubpath(ch.path, subpath) || inSubpath(ch.from, subpath)),
    )
    .reverse() // newest first, as `git log` lists them
    .slice(0, MAX_COMMITS)
    .map(({ hash, subject, author }) => ({ hash, subject, author }));
  return { commits, files: foldChanges(logged) };
}

export interface StartedChanges {
  /** The commits from `from` to `to` (those touching the subpath) and the files they changed. */
  read(from: string, to: string): Promise<Changes>;
  /** Ends the git process when read will not be called; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts the git process before the range is known (an update starts it while the fetch waits on
 * the network); the range is given on stdin once the fetch is done.
 */
export function startChanges(
  dir: string,
  subpath: string | undefined,
  env: NodeJS.ProcessEnv,
): StartedChanges {
  const log = startGit([...LOG, "--stdin"], { cwd: dir, env });
  return {
    read: async (from, to) =>
      summarize(await log.run(`${from}..${to}\n`), dir, from, to, subpath, env),
    stop: () => log.stop(),
  };
}
