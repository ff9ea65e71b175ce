/**
 * The plugin file API (fs from `@islet/sdk`), host side (SPEC §6). Paths resolve against the
 * workspace; a path is allowed only if its real location (symlinks and `..` resolved) lies inside
 * an allowed root:
 * - the workspace and the plugin's own folder: read-only;
 * - the plugin's data folder (under the global home): read-write;
 * - the plugin's *granted* `permissions.paths` (read-only unless `write: true`).
 *
 * Whatever the grants say, a write never reaches a name something reads as configuration or runs
 * (`.islet/`, `.mcp.json`, `secrets.env`, `.git/`, `.claude/`: PROTECTED_WORKSPACE_NAMES, anywhere
 * in the path, in any case), the env files in use, the global home (but for the data folder) or
 * any plugins folder (the plugin's own included): those are how a plugin would widen its own
 * rights, start a program once the folder is trusted, or run commands on the user's next git
 * commit. Reads of the global home (sessions, grants, other plugins' data) and of the env files
 * (API keys) are refused too. Errors are one line the plugin author can act on.
 */
import { constants } from "node:fs";
import { lstat, mkdir, readdir, readFile, realpath, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { protectedName } from "../../config/workspace-files.ts";
import type { PathPermission } from "./permissions.ts";

export interface FileRoot {
  /** Where the root was declared (absolute, not yet resolved). */
  path: string;
  write: boolean;
  label: string;
}

/** Places no plugin reaches whatever its grants (absolute paths; resolved through symlinks). */
export interface ProtectedPaths {
  /** The global home: no reads or writes (the plugin's data folder excepted). */
  globalHome: string;
  /** Every plugins folder: no writes. */
  pluginDirs: readonly string[];
  /** Env files holding API keys (secrets.env, --env-file): no reads, no writes. */
  secretFiles: readonly string[];
}

export interface FileLimits {
  /** Largest file readFile returns, and largest content writeFile/appendFile accept (bytes). */
  maxFileBytes: number;
}

export const DEFAULT_FILE_LIMITS: FileLimits = { maxFileBytes: 10 * 1024 * 1024 };

export interface FileStatResult {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtime: string;
}

type Access = "read" | "write";

/** `~/x` → home, relative → against `base`. */
export function expandPath(p: string, base: string): string {
  if (p === "~" || p.startsWith("~/") || p.startsWith("~\\"))
    return path.join(os.homedir(), p.slice(1));
  return path.resolve(base, p);
}

// macOS and Windows volumes are case-insensitive by default: `.GIT/hooks` is `.git/hooks` there.
const foldCase = process.platform === "darwin" || process.platform === "win32";
const fold = (p: string): string => (foldCase ? p.toLowerCase() : p);

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(fold(parent), fold(child));
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

/** The plugin's own writable folder: `<global home>/plugin-data/<name>`. */
export function pluginDataDir(globalHome: string, plugin: string): string {
  // Names are checked at discovery; this keeps a name like "../config" from ever naming a folder
  // elsewhere in the global home should one slip through.
  if (!/^[A-Za-z0-9_][A-Za-z0-9._-]*$/.test(plugin))
    throw new Error(`"${plugin.slice(0, 80)}" cannot name a plugin data folder`);
  return path.join(globalHome, "plugin-data", plugin);
}

export class PluginFiles {
  readonly #plugin: string;
  readonly #workdir: string;
  readonly #dataDir: string;
  readonly #pluginDir: string;
  readonly #roots: FileRoot[];
  readonly #protected: ProtectedPaths;
  readonly #limits: FileLimits;

  constructor(opts: {
    plugin: string;
    workdir: string;
    pluginDir: string;
    /** The plugin's own writable folder (created on first write). */
    dataDir: string;
    /** Granted `permissions.paths` only: an ungranted request gives nothing. */
    grants?: PathPermission[];
    protected: ProtectedPaths;
    limits?: Partial<FileLimits>;
  }) {
    this.#plugin = opts.plugin;
    this.#workdir = path.resolve(opts.workdir);
    this.#dataDir = path.resolve(opts.dataDir);
    this.#pluginDir = path.resolve(opts.pluginDir);
    this.#protected = opts.protected;
    this.#limits = { ...DEFAULT_FILE_LIMITS, ...opts.limits };
    this.#roots = [
      { path: this.#dataDir, write: true, label: "the plugin's data folder" },
      { path: this.#workdir, write: false, label: "the workspace" },
      { path: this.#pluginDir, write: false, label: "the plugin's folder" },
      ...(opts.grants ?? []).map((grant) => ({
        path: expandPath(grant.path, this.#workdir),
        write: grant.write === true,
        label: `permissions.paths ${grant.path}`,
      })),
    ];
  }

  /** Where `fs.dataDir` points inside the sandbox. */
  get dataDir(): string {
    return this.#dataDir;
  }

  // Made on first use, so `fs.readdir(fs.dataDir)` works from the start.
  #dataReady: Promise<unknown> | null = null;
  #ready(): Promise<unknown> {
    this.#dataReady ??= mkdir(this.#dataDir, { recursive: true }).catch(() => undefined);
    return this.#dataReady;
  }

  async readFile(p: string): Promise<string> {
    await this.#ready();
    const real = await this.#resolveExisting(p, "read");
    const info = await stat(real);
    if (!info.isFile()) throw new Error(`${p} is not a file`);
    if (info.size > this.#limits.maxFileBytes) {
      throw new Error(
        `${p} is larger than the ${mb(this.#limits.maxFileBytes)} the file API reads`,
      );
    }
    return readFile(real, "utf8");
  }

  async writeFile(p: string, content: string): Promise<void> {
    await this.#write(p, content, "w");
  }

  async appendFile(p: string, content: string): Promise<void> {
    await this.#write(p, content, "a");
  }

  async readdir(p: string): Promise<string[]> {
    await this.#ready();
    const real = await this.#resolveExisting(p, "read");
    const names = await readdir(real).catch((error: unknown) => {
      throw plainError(error, p);
    });
    return names.sort();
  }

  async stat(p: string): Promise<FileStatResult> {
    await this.#ready();
    const info = await stat(await this.#resolveExisting(p, "read"));
    return {
      isFile: info.isFile(),
      isDirectory: info.isDirectory(),
      size: info.size,
      mtime: info.mtime.toISOString(),
    };
  }

  async exists(p: string): Promise<boolean> {
    await this.#ready();
    try {
      await this.#resolveExisting(p, "read");
      return true;
    } catch (error) {
      if (error instanceof NotFound) return false;
      throw error;
    }
  }

  /** The real path of an existing file, checked against the roots. */
  async #resolveExisting(p: string, access: Access): Promise<string> {
    const absolute = expandPath(p, this.#workdir);
    let real: string;
    try {
      real = await realpath(absolute);
    } catch (error) {
      throw isCode(error, "ENOENT") || isCode(error, "ENOTDIR")
        ? new NotFound(p)
        : plainError(error, p);
    }
    await this.#check(real, p, access);
    return real;
  }

  /**
   * Where a write lands: the nearest existing ancestor resolved through its symlinks, plus the
   * names still to be created (none of which may be a dangling symlink).
   */
  async #resolveForWrite(p: string): Promise<string> {
    const missing: string[] = [];
    let existing = expandPath(p, this.#workdir);
    for (;;) {
      const base = await realpath(existing).catch((error: unknown) => {
        if (isCode(error, "ENOENT")) return undefined;
        throw plainError(error, p);
      });
      if (base !== undefined) {
        const real = path.join(base, ...missing);
        await this.#check(real, p, "write");
        return real;
      }
      if (
        await lstat(existing).then(
          () => true,
          () => false,
        )
      ) {
        throw new Error(
          `plugin ${this.#plugin} cannot write ${p}: it is a symbolic link to a missing target`,
        );
      }
      const parent = path.dirname(existing);
      if (parent === existing) throw new NotFound(p);
      missing.unshift(path.basename(existing));
      existing = parent;
    }
  }

  async #write(p: string, content: string, mode: "w" | "a"): Promise<void> {
    await this.#ready();
    if (Buffer.byteLength(content) > this.#limits.maxFileBytes) {
      throw new Error(
        `content for ${p} is larger than the ${mb(this.#limits.maxFileBytes)} the file API writes`,
      );
    }
    const real = await this.#resolveForWrite(p);
    await mkdir(path.dirname(real), { recursive: true });
    // O_NOFOLLOW: a symlink swapped in after the check cannot redirect the write (POSIX only).
    const flags =
      constants.O_WRONLY |
      constants.O_CREAT |
      (mode === "w" ? constants.O_TRUNC : constants.O_APPEND) |
      (constants.O_NOFOLLOW ?? 0);
    await writeFile(real, content, { encoding: "utf8", flag: flags }).catch((error: unknown) => {
      throw plainError(error, p);
    });
  }

  // The real locations of the roots and protected places, resolved once: they are fixed for the
  // plugin's lifetime, and a folder not created yet resolves through its existing ancestors.
  #placesOnce: Promise<Places> | null = null;
  #places(): Promise<Places> {
    this.#placesOnce ??= (async () => {
      const prot = this.#protected;
      const all = (paths: readonly string[]) => Promise.all(paths.map(realOrSelf));
      return {
        dataDir: await realOrSelf(this.#dataDir),
        home: await realOrSelf(prot.globalHome),
        ownFolder: await realOrSelf(this.#pluginDir),
        pluginDirs: await all([this.#pluginDir, ...prot.pluginDirs]),
        secretFiles: (await all(prot.secretFiles)).map(fold),
        roots: await all(this.#roots.map((r) => r.path)),
      };
    })();
    return this.#placesOnce;
  }

  async #check(real: string, p: string, access: Access): Promise<void> {
    const places = await this.#places();
    // The data folder is the plugin's own, even though it lives in the global home.
    if (isInside(real, places.dataDir)) return;
    const refusal = protectedReason(real, access, places);
    if (refusal) throw new Error(`plugin ${this.#plugin} cannot ${access} ${p}: ${refusal}`);
    let readOnlyMatch: FileRoot | undefined;
    for (const [i, root] of this.#roots.entries()) {
      // A granted folder that does not exist yet is still granted (a write creates it).
      if (!isInside(real, places.roots[i])) continue;
      if (access === "read" || root.write) return;
      readOnlyMatch = root;
    }
    if (readOnlyMatch) {
      const fix =
        readOnlyMatch.label === "the workspace"
          ? `write to the plugin's data folder (fs.dataDir), or ask for the folder in plugin.yaml permissions.paths with write: true and a reason`
          : readOnlyMatch.label === "the plugin's folder"
            ? "write to the plugin's data folder (fs.dataDir) instead"
            : "add write: true to it in plugin.yaml (the user is asked again)";
      throw new Error(
        `plugin ${this.#plugin} cannot write ${p}: ${readOnlyMatch.label} is read-only to plugins; ${fix}`,
      );
    }
    throw new Error(
      `plugin ${this.#plugin} cannot ${access} ${p}: it is outside the workspace and the plugin's folders ` +
        "(ask for it in plugin.yaml permissions.paths with a reason; the user is asked to grant it)",
    );
  }
}

interface Places {
  dataDir: string;
  home: string;
  ownFolder: string;
  pluginDirs: string[];
  /** Case-folded where the file system folds case. */
  secretFiles: string[];
  /** The real path of each root, in the roots' order. */
  roots: string[];
}

/** Why a real path is off limits whatever the grants say, or null. */
function protectedReason(real: string, access: Access, places: Places): string | null {
  if (access === "read") {
    if (places.secretFiles.includes(fold(real)))
      return "env files hold API keys and are never readable by plugins";
    if (isInside(real, places.home) && !isInside(real, places.ownFolder))
      return "Islet's global home (sessions, grants, other plugins) is not readable by plugins";
    return null;
  }
  for (const part of real.split(path.sep)) {
    const hit = protectedName(part);
    if (hit) return `${hit.name} is never writable by plugins (it holds ${hit.holds})`;
  }
  if (places.secretFiles.includes(fold(real)))
    return "env files hold API keys and are never writable by plugins";
  if (places.pluginDirs.some((dir) => isInside(real, dir)))
    return "plugin folders are never writable by plugins (use fs.dataDir for the plugin's own data)";
  if (isInside(real, places.home))
    return "Islet's global home is never writable by plugins (use fs.dataDir)";
  return null;
}

/** The real path of `p`; for a path not created yet, its nearest existing ancestor's plus the rest. */
async function realOrSelf(p: string): Promise<string> {
  const missing: string[] = [];
  let at = path.resolve(p);
  for (;;) {
    const real = await realpath(at).catch(() => undefined);
    if (real !== undefined) return path.join(real, ...missing);
    const parent = path.dirname(at);
    if (parent === at) return path.resolve(p);
    missing.unshift(path.basename(at));
    at = parent;
  }
}

class NotFound extends Error {
  constructor(p: string) {
    super(`no such file or directory: ${p}`);
  }
}

function isCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

// Node's messages carry syscall names and real paths; the plugin author wants the short reason.
function plainError(error: unknown, p: string): Error {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  const reasons: Record<string, string> = {
    ENOENT: "no such file or directory",
    EISDIR: "is a directory",
    ENOTDIR: "a part of the path is not a directory",
    EACCES: "permission denied by the operating system",
    EPERM: "permission denied by the operating system",
    ELOOP: "is a symbolic link (writes do not follow links)",
  };
  const reason = code ? reasons[code] : undefined;
  return new Error(
    reason ? `${p}: ${reason}` : `${p}: ${error instanceof Error ? error.message : String(error)}`,
  );
}

function mb(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}
