/**
 * The local side of packs' git: an update's staging copy, what is checked out, local edits since
 * install, and what changed between two commits. A fresh clone's HEAD and FETCH_HEAD are read
 * from their files (git wrote them a moment ago), saving a git process each; anything unusual
 * falls back to asking git.
 */
import { copyFileSync, linkSync, mkdirSync, readdirSync } from "node:fs";
import {
  copyFile,
  lstat,
  mkdir,
  readFile,
  readlink,
  symlink,
  utimes,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import { gitReason } from "./git-errors.ts";
import { runGit } from "./git-run.ts";
import { PackError } from "./types.ts";
import { worktreeFiles } from "./untouched.ts";

const HASH = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

async function gitFile(dir: string, ...rel: string[]): Promise<string | undefined> {
  try {
    return (await readFile(path.join(dir, ".git", ...rel), "utf8")).trim();
  } catch {
    return undefined;
  }
}

/** The branch HEAD is on ("" when detached). */
export async function currentBranch(dir: string): Promise<string> {
  const head = await gitFile(dir, "HEAD");
  return /^ref: refs\/heads\/(\S+)$/.exec(head ?? "")?.[1] ?? "";
}

/** The commit checked out. */
export async function headCommit(dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  const head = await gitFile(dir, "HEAD");
  if (head && HASH.test(head)) return head;
  const ref = /^ref: (refs\/[\w./-]+)$/.exec(head ?? "")?.[1];
  const loose = ref && !ref.includes("..") ? await gitFile(dir, ...ref.split("/")) : undefined;
  if (loose && HASH.test(loose)) return loose;
  return (await runGit(["rev-parse", "HEAD"], { cwd: dir, env })).trim();
}

/**
 * What the last fetch brought (FETCH_HEAD's first line): the object, and whether it is a tag,
 * which may be an annotated tag object rather than a commit.
 */
export async function fetchedHead(dir: string): Promise<{ object: string; tag: boolean }> {
  const [object = "", , description = ""] = ((await gitFile(dir, "FETCH_HEAD")) ?? "")
    .split("\n")[0]
    .split("\t");
  return { object: HASH.test(object) ? object : "", tag: description.startsWith("tag ") };
}

/** What a staging copy leaves out of `.git`: hook samples, reflogs, and the index (see below). */
const NOT_COPIED = new Set(["hooks", "logs", "description", "index", "info"]);

const copyFailed = (installed: string, err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  return new PackError(
    `cannot copy the installed ${installed} for the update: ${e.code ?? e.message}${e.path ? ` (${e.path})` : ""}`,
  );
};

/**
 * An update's staging copy of the installed pack's `.git`, as `git clone --local --no-checkout`
 * makes it, without starting git: objects hard-linked (they never change), refs, config and HEAD
 * copied. The old commit is there for the diff, and the installed copy is only read. The index
 * comes only with `index` (the files will be copied too, see copyCheckedOut), so that the update's
 * checkout writes only what changed; without it the checkout writes every file. A few dozen
 * small files: copied with synchronous calls, which on a busy machine take a tenth of the time of
 * as many thread-pool round trips.
 */
export function copyInstalled(installed: string, staged: string, index: boolean): void {
  const from = path.join(installed, ".git");
  const copy = (src: string, dest: string, inObjects: boolean): void => {
    mkdirSync(dest, { recursive: true });
    for (const e of readdirSync(src, { withFileTypes: true })) {
      if (src === from && NOT_COPIED.has(e.name) && !(index && e.name === "index")) continue;
      const a = path.join(src, e.name);
      const b = path.join(dest, e.name);
      if (e.isDirectory()) copy(a, b, inObjects || (src === from && e.name === "objects"));
      else if (!e.isFile() || e.name.endsWith(".lock")) continue;
      else if (!inObjects) copyFileSync(a, b);
      else
        try {
          linkSync(a, b);
        } catch {
          copyFileSync(a, b);
        }
    }
  };
  try {
    copy(from, path.join(staged, ".git"), false);
  } catch (err) {
    throw copyFailed(installed, err);
  }
}

/**
 * The installed pack's checked-out files, copied into its staging copy (with copyInstalled's
 * index) while the update is fetched: the files a person may not have edited (the caller refuses
 * an edited copy), never linked, so no write in staging reaches the installed version. Vendored
 * node_modules and the sidecar stay behind.
 */
export async function copyCheckedOut(installed: string, staged: string): Promise<void> {
  try {
    const names = [...worktreeFiles(installed)];
    const dirs = new Set(names.map((n) => path.dirname(path.join(staged, n))));
    await Promise.all([...dirs].map((d) => mkdir(d, { recursive: true })));
    await Promise.all(
      names.map(async (name) => {
        const a = path.join(installed, name);
        const b = path.join(staged, name);
        const st = await lstat(a);
        if (st.isSymbolicLink()) return symlink(await readlink(a), b);
        await copyFile(a, b);
        // The same size and modification time: the checkout can tell the file is unchanged.
        await utimes(b, st.atime, st.mtime);
      }),
    );
  } catch (err) {
    throw copyFailed(installed, err);
  }
}

/**
 * Checks `commit` out, on `branch` when the pack follows one. Over files from copyCheckedOut
 * (`copied`), a file is taken as unchanged by its size and modification time, which the copy
 * kept: git compares the inode and change time too by default, which every copy fails, and would
 * write every file again. Not `--quiet`: simple-git waits 50 ms more for a process that printed
 * nothing, and checkout's one line ends that wait.
 */
export async function checkoutCommit(
  dir: string,
  commit: string,
  branch: string,
  env: NodeJS.ProcessEnv,
  copied: boolean,
): Promise<void> {
  const stat = copied ? ["-c", "core.checkStat=minimal", "-c", "core.trustCtime=false"] : [];
  const target = branch ? ["-B", branch, commit] : ["--detach", commit];
  await runGit([...stat, "checkout", "--force", ...target], { cwd: dir, env });
}

/** Vendored dependencies and the sidecar are not edits: git is told to ignore them. */
export async function excludeIslands(dir: string): Promise<void> {
  const info = path.join(dir, ".git", "info");
  await mkdir(info, { recursive: true });
  await writeFile(path.join(info, "exclude"), "# written by islet\nnode_modules/\n/.origin.yaml\n");
}

/**
 * The commit checked out and the files changed since (git status short codes, e.g. "M a/index.ts",
 * "?? notes.txt"), from one `git status --porcelain=v2`.
 */
export async function localState(
  dir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ head: string; edits: string[] }> {
  let out: string;
  try {
    out = await runGit(
      [
        "status",
        "--porcelain=v2",
        "--branch",
        "-z",
        "--untracked-files=all",
        "--ignore-submodules",
      ],
      { cwd: dir, env },
    );
  } catch (err) {
    throw new PackError(
      `cannot tell whether ${dir} was edited: ${gitReason((err as Error).message)} (pass --force to replace it anyway)`,
    );
  }
  let head = "";
  const edits: string[] = [];
  const parts = out.split("\0");
  // Fields before the path: "1 XY sub mH mI mW hH hI path", "2 … X<score> path\0orig", "u … path".
  const before: Record<string, number> = { "1": 8, "2": 9, u: 10 };
  for (let i = 0; i < parts.length; i++) {
    const entry = parts[i];
    if (entry.startsWith("# branch.oid ")) head = entry.slice("# branch.oid ".length);
    else if (entry.startsWith("? ")) edits.push(`?? ${entry.slice(2)}`);
    else if (before[entry[0]] !== undefined) {
      const fields = entry.split(" ");
      const code = fields[1].replace(/\./g, "").trim();
      edits.push(`${code} ${fields.slice(before[entry[0]]).join(" ")}`);
      if (entry[0] === "2") i++; // the rename's source follows
    }
  }
  return { head: HASH.test(head) ? head : "", edits };
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
