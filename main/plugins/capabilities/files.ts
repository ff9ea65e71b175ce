/**
 * The plugin file API (fs from `@islet/sdk`), host side. Paths resolve against the workspace;
 * a path is allowed only if its real location (symlinks and `..` resolved) lies inside an
 * allowed root: the workspace and the plugin's own folder (read-write), plus the plugin's
 * `permissions.paths` grants (read-only unless `write: true`). Errors are one line the plugin
 * author can act on.
 */
import { constants } from "node:fs";
import { lstat, mkdir, readdir, readFile, realpath, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PathPermission } from "./permissions.ts";

export interface FileRoot {
  /** Where the root was declared (absolute, not yet resolved). */
  path: string;
  write: boolean;
  label: string;
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

export function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

export class PluginFiles {
  readonly #plugin: string;
  readonly #workdir: string;
  readonly #roots: FileRoot[];
  readonly #limits: FileLimits;

  constructor(opts: {
    plugin: string;
    workdir: string;
    pluginDir: string;
    grants?: PathPermission[];
    limits?: Partial<FileLimits>;
  }) {
    this.#plugin = opts.plugin;
    this.#workdir = path.resolve(opts.workdir);
    this.#limits = { ...DEFAULT_FILE_LIMITS, ...opts.limits };
    this.#roots = [
      { path: this.#workdir, write: true, label: "the workspace" },
      { path: path.resolve(opts.pluginDir), write: true, label: "the plugin's folder" },
      ...(opts.grants ?? []).map((grant) => ({
        path: expandPath(grant.path, this.#workdir),
        write: grant.write === true,
        label: `permissions.paths ${grant.path}`,
      })),
    ];
  }

  async readFile(p: string): Promise<string> {
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
    const real = await this.#resolveExisting(p, "read");
    const names = await readdir(real).catch((error: unknown) => {
      throw plainError(error, p);
    });
    return names.sort();
  }

  async stat(p: string): Promise<FileStatResult> {
    const info = await stat(await this.#resolveExisting(p, "read"));
    return {
      isFile: info.isFile(),
      isDirectory: info.isDirectory(),
      size: info.size,
      mtime: info.mtime.toISOString(),
    };
  }

  async exists(p: string): Promise<boolean> {
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

  async #check(real: string, p: string, access: Access): Promise<void> {
    let readOnlyMatch: FileRoot | undefined;
    for (const root of this.#roots) {
      const rootReal = await realpath(root.path).catch(() => undefined);
      if (rootReal === undefined || !isInside(real, rootReal)) continue;
      if (access === "read" || root.write) return;
      readOnlyMatch = root;
    }
    if (readOnlyMatch) {
      throw new Error(
        `plugin ${this.#plugin} cannot write ${p}: ${readOnlyMatch.label} is granted read-only (add write: true to it in plugin.yaml)`,
      );
    }
    throw new Error(
      `plugin ${this.#plugin} cannot ${access} ${p}: it is outside the workspace and the plugin's folder ` +
        "(grant it in plugin.yaml permissions.paths with a reason)",
    );
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
