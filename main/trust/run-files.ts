/**
 * What a command runs, as content (consent is recorded against it, not the command's text): an
 * approved `sh ${CLAUDE_PLUGIN_ROOT}/hooks/hook.sh` whose hook.sh changed is no longer what the
 * user approved. The rule, one for hooks, MCP servers and runners:
 *
 * - named files: words of the command and its arguments (and the value of `--opt=value`) that,
 *   with `${CLAUDE_PLUGIN_ROOT}` / `{plugin_dir}` put in for the folder, are existing files inside
 *   the folder, taken as written (absolute) or relative to the folder — the program itself (first
 *   word), the file an interpreter is pointed at (second word: `node server`, `sh hook`), and any
 *   script file (executable, or a script's extension) anywhere in the line, also inside a quoted
 *   line given to a shell (`sh -c "node tools/x.mjs"`). Other files a command
 *   names are data (`--db ./data.sqlite`, a log it writes) and would ask again at every change;
 * - in a plugin's folder, also every script file in it (executable, or a script's extension), but
 *   never .git or node_modules (npm's lockfile stands for them): a script sources or imports its
 *   neighbours, and a plugin's folder is small. A workspace is not walked (every edit of a
 *   project's code would ask again): only the files its commands name count there.
 *
 * Only what runs is hashed, each file once per change (cached by size, mtime and inode).
 */
import { createHash } from "node:crypto";
import { readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { walkFolder } from "../config/folder-walk.ts";

/** Relative path (forward slashes) → digest of its bytes. */
export type RunFiles = Record<string, string>;

const SCRIPT_EXTENSIONS = new Set(
  "sh bash zsh fish ksh js mjs cjs ts mts cts py rb pl pm php lua ps1 psm1 bat cmd jar wasm"
    .split(" ")
    .map((e) => `.${e}`),
);
/** A plugin with more files than this is hashed no further (its named files still are). */
const MAX_WALKED_FILES = 2_000;

const ROOT_VARIABLES = [/\$\{CLAUDE_PLUGIN_ROOT\}/g, /\$CLAUDE_PLUGIN_ROOT\b/g, /\{plugin_dir\}/g];

/** The words of a command line, quotes taken off and shell operators as separators (lenient). */
function words(command: string): string[] {
  const out: string[] = [];
  for (const m of command.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s;|&<>()`"']+)/g))
    out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** Candidate paths, each with whether it names what runs whatever its kind (first two words). */
function candidates(
  command: string | readonly string[],
  root: string,
): { word: string; runs: boolean }[] {
  const parts = typeof command === "string" ? words(command) : [...command];
  const out: { word: string; runs: boolean }[] = [];
  parts.forEach((part, i) => {
    let word = part;
    for (const re of ROOT_VARIABLES) word = word.replace(re, root);
    out.push({ word, runs: i < 2 });
    const eq = word.indexOf("=");
    if (eq > 0) out.push({ word: word.slice(eq + 1), runs: false });
    // A line given to a shell (`sh -c "node tools/x.mjs"`): its words name files too.
    if (/\s/.test(word)) for (const inner of words(word)) out.push({ word: inner, runs: false });
  });
  return out.filter((c) => c.word.length > 0 && !c.word.includes("\0"));
}

const inside = (root: string, file: string) => {
  const rel = path.relative(root, file);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
};

const posixRel = (root: string, file: string) =>
  path.relative(root, file).split(path.sep).join("/");

/** The files inside `root` a command names (relative, sorted), by the rule above. */
export async function namedFiles(
  command: string | readonly string[],
  root: string,
): Promise<string[]> {
  const realRoot = await realpath(root).catch(() => path.resolve(root));
  const found = new Set<string>();
  for (const { word, runs } of candidates(command, root)) {
    const full = path.resolve(root, word);
    const base = inside(root, full) ? root : inside(realRoot, full) ? realRoot : null;
    if (!base) continue;
    // A link in the folder counts as what it leads to: its target's bytes are what runs.
    const info = await stat(full).catch(() => null);
    if (!info?.isFile() || !(runs || isScriptFile(full, info.mode))) continue;
    found.add(posixRel(base, full));
  }
  return [...found].sort();
}

const digests = new Map<string, { stamp: string; digest: string }>();

/** A file's digest, read again only when its size, mtime or inode changed; null if unreadable. */
export async function fileDigest(file: string): Promise<string | null> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) return null;
  const stamp = `${info.size}:${info.mtimeMs}:${info.ino}:${info.mode}`;
  const cached = digests.get(file);
  if (cached?.stamp === stamp) return cached.digest;
  const bytes = await readFile(file).catch(() => null);
  if (!bytes) return null;
  // The mode counts: a file made executable is a different program to run.
  const digest = createHash("sha256")
    .update(bytes)
    .update(`\0${info.mode & 0o111 ? "x" : "-"}`)
    .digest("hex")
    .slice(0, 32);
  digests.set(file, { stamp, digest });
  return digest;
}

/** Whether a file is one a command could run: executable, or a script's extension. */
export function isScriptFile(name: string, mode = 0): boolean {
  return (mode & 0o111) !== 0 || SCRIPT_EXTENSIONS.has(path.extname(name).toLowerCase());
}

/** Every script file in a plugin's folder (relative, sorted), .git and node_modules left out. */
export async function scriptFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  let seen = 0;
  await walkFolder(
    root,
    async ({ entry: e, full }) => {
      if (++seen > MAX_WALKED_FILES) return false;
      if (e.isFile() || e.isSymbolicLink()) {
        // A link counts as what it leads to (a file): its target's bytes are what would run.
        const info = await stat(full).catch(() => null);
        if (info?.isFile() && isScriptFile(e.name, info.mode)) out.push(posixRel(root, full));
      }
    },
    { sorted: true },
  );
  return out.sort();
}

/** Digests of `files` (relative to `root`); an unreadable one is recorded as "missing". */
export async function digestsOf(root: string, files: Iterable<string>): Promise<RunFiles> {
  const out: RunFiles = {};
  for (const rel of [...new Set(files)].sort())
    out[rel] = (await fileDigest(path.join(root, ...rel.split("/")))) ?? "missing";
  return out;
}

/**
 * What the commands of one plugin run: the files they name and, `walk` set (a plugin's folder),
 * every script file in the folder; with their digests.
 */
export async function runFilesOf(
  root: string,
  commands: readonly (string | readonly string[])[],
  opts: { walk: boolean },
): Promise<RunFiles> {
  if (commands.length === 0) return {};
  const files = new Set<string>();
  for (const command of commands) for (const f of await namedFiles(command, root)) files.add(f);
  if (opts.walk) for (const f of await scriptFiles(root)) files.add(f);
  return digestsOf(root, files);
}

/** The files whose digest differs between two records (added and removed ones too), sorted. */
export function changedFiles(before: RunFiles, after: RunFiles): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]).sort();
}

/** One digest for a record (for a fingerprint). */
export function runFilesDigest(files: RunFiles): string {
  return createHash("sha256")
    .update(JSON.stringify(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))))
    .digest("hex")
    .slice(0, 32);
}
