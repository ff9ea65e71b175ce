/**
 * The local-edit check's fast path, without starting git. Right after a pack's files are checked
 * out (in staging, before anything else touches them), the size, times, inode and mode of every
 * file are noted beside the repository (`.git/islet-clean-index`), with the index's checksum.
 * Later, when the index is still that one (nothing was staged or unstaged, git rewrote nothing),
 * every noted file has the same stat (a write changes ctime, which cannot be set back) and no
 * other file is there (node_modules/ and the root .origin.yaml, which git is told to ignore,
 * aside), the copy is untouched. Anything else — or no note — is not judged here: `git status`
 * decides. So "untouched" is only said when git, asked, would find nothing either.
 */
import { lstatSync, readdirSync, readFileSync, writeFileSync, type BigIntStats } from "node:fs";
import path from "node:path";
import { objectIdLength } from "./git-index.ts";

const MARK = "islet-clean-index";
/** Bigger packs go to git, which is faster at walking thousands of files than this. */
const MAX_FILES = 5_000;

/** The checksum git ends its index with. */
function indexSum(gitDir: string): string {
  const index = readFileSync(path.join(gitDir, "index"));
  return index.subarray(index.length - objectIdLength(gitDir)).toString("hex");
}

const statLine = (st: BigIntStats) =>
  [st.size, st.mtimeNs, st.ctimeNs, st.ino, st.mode].map(String).join(" ");

/** Every file and symlink under `dir` but .git, node_modules/ and the root .origin.yaml. */
export function* worktreeFiles(dir: string, rel = ""): Generator<string> {
  for (const e of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    const name = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (e.name === "node_modules" || name === ".git") continue;
      yield* worktreeFiles(dir, name);
    } else if (name !== ".origin.yaml") yield name;
  }
}

/** Notes the files just checked out at `dir` as untouched. Best effort. */
export function markCheckedOut(dir: string): void {
  const gitDir = path.join(dir, ".git");
  try {
    const lines = [indexSum(gitDir)];
    for (const name of worktreeFiles(dir)) {
      if (lines.length > MAX_FILES) return;
      lines.push(`${statLine(lstatSync(path.join(dir, name), { bigint: true }))} ${name}`);
    }
    writeFileSync(path.join(gitDir, MARK), `${lines.join("\n")}\n`);
  } catch {
    // no note: the edit check asks git
  }
}

/** True only when the copy at `dir` is surely as checked out; false means "ask git". */
export function surelyUntouched(dir: string): boolean {
  const gitDir = path.join(dir, ".git");
  try {
    const [sum, ...noted] = readFileSync(path.join(gitDir, MARK), "utf8").trimEnd().split("\n");
    if (sum !== indexSum(gitDir)) return false;
    const names = new Set<string>();
    for (const line of noted) {
      const cut = line.split(" ", 5).join(" ").length;
      const name = line.slice(cut + 1);
      names.add(name);
      const st = lstatSync(path.join(dir, name), { bigint: true, throwIfNoEntry: false });
      if (!st || statLine(st) !== line.slice(0, cut)) return false;
    }
    for (const name of worktreeFiles(dir)) if (!names.has(name)) return false;
    return true;
  } catch {
    return false;
  }
}
