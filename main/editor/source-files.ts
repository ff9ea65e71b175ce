/**
 * The plugin editor's file access (SPEC §9): the user reads and writes a plugin's own files
 * through the UI, so the engine must make sure a request (from a page, possibly a hostile one
 * that got hold of the bridge) never leaves that plugin's folder. Paths are relative to the
 * plugin folder; `..`, absolute paths, NUL bytes and symlinks leading out are refused with one
 * line; writes never follow a symlink.
 */
import { constants } from "node:fs";
import {
  lstat,
  mkdir,
  readdir,
  readFile,
  realpath,
  rename as fsRename,
  stat,
  unlink,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import { isInside } from "../code-plugins/capabilities/files.ts";
import { isSkippedFolder, MANIFEST_NAME } from "../code-plugins/loader/walk.ts";

export interface SourceEntry {
  /** Relative to the plugin folder, with `/`. */
  path: string;
  size: number;
}

export const MAX_SOURCE_BYTES = 2 * 1024 * 1024;
const MAX_LISTED = 2000;

export class PluginSourceFiles {
  readonly #folderOf: (plugin: string) => string | undefined;

  /** `folderOf`: the folder of a loaded plugin by name (undefined: no such plugin). */
  constructor(folderOf: (plugin: string) => string | undefined) {
    this.#folderOf = folderOf;
  }

  /** The plugin's editable files (no hidden folders, no node_modules). */
  async list(plugin: string): Promise<SourceEntry[]> {
    const root = await this.#root(plugin);
    const out: SourceEntry[] = [];
    const walk = async (dir: string): Promise<void> => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        if (out.length >= MAX_LISTED) return;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory() && !isSkippedFolder(entry.name)) await walk(full);
        else if (entry.isFile())
          out.push({ path: toPosix(path.relative(root, full)), size: (await stat(full)).size });
      }
    };
    await walk(root);
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  async read(plugin: string, file: string): Promise<string> {
    const root = await this.#root(plugin);
    const full = await this.#inside(root, plugin, file);
    const real = await realpath(full).catch(() => {
      throw new Error(`${plugin}: no file ${file}`);
    });
    if (!isInside(real, root))
      throw new Error(`${plugin}: ${file} leads outside the plugin folder`);
    const info = await stat(real);
    if (!info.isFile()) throw new Error(`${plugin}: ${file} is not a file`);
    if (info.size > MAX_SOURCE_BYTES) throw new Error(`${plugin}: ${file} is too large to edit`);
    return readFile(real, "utf8");
  }

  async write(plugin: string, file: string, content: string): Promise<void> {
    await this.#put(plugin, file, content, false);
  }

  /** A new file (refused when one is already there). */
  async create(plugin: string, file: string, content: string): Promise<void> {
    await this.#put(plugin, file, content, true);
  }

  async rename(plugin: string, from: string, to: string): Promise<void> {
    const root = await this.#root(plugin);
    const source = await this.#writable(root, plugin, from);
    const target = await this.#writable(root, plugin, to);
    if (isManifest(root, source))
      throw new Error(
        `${plugin}: ${MANIFEST_NAME} cannot be renamed; it is what makes the folder a plugin`,
      );
    if (!(await lstat(source).catch(() => null))) throw new Error(`${plugin}: no file ${from}`);
    if (await lstat(target).catch(() => null))
      throw new Error(`${plugin}: ${to.slice(0, 200)} already exists; choose another name`);
    await mkdir(path.dirname(target), { recursive: true });
    // rename() moves a link itself, never what it points to.
    await fsRename(source, target);
  }

  async remove(plugin: string, file: string): Promise<void> {
    const root = await this.#root(plugin);
    const full = await this.#writable(root, plugin, file);
    const info = await lstat(full).catch(() => null);
    if (!info) throw new Error(`${plugin}: no file ${file.slice(0, 200)}`);
    if (info.isDirectory()) throw new Error(`${plugin}: ${file.slice(0, 200)} is not a file`);
    if (isManifest(root, full))
      throw new Error(
        `${plugin}: ${MANIFEST_NAME} cannot be deleted; it is what makes the folder a plugin`,
      );
    // unlink() removes a link itself, never what it points to.
    await unlink(full);
  }

  async #put(plugin: string, file: string, content: string, fresh: boolean): Promise<void> {
    const root = await this.#root(plugin);
    if (Buffer.byteLength(content) > MAX_SOURCE_BYTES)
      throw new Error(`${plugin}: ${file}: more than ${MAX_SOURCE_BYTES / 1024 / 1024} MB`);
    const full = await this.#writable(root, plugin, file);
    const existing = await lstat(full).catch(() => null);
    if (fresh && existing)
      throw new Error(`${plugin}: ${file.slice(0, 200)} already exists; choose another name`);
    if (existing?.isSymbolicLink())
      throw new Error(`${plugin}: ${file} is a symbolic link; edit the file it points to instead`);
    await mkdir(path.dirname(full), { recursive: true });
    const flags =
      constants.O_WRONLY |
      constants.O_CREAT |
      (fresh ? constants.O_EXCL : constants.O_TRUNC) |
      (constants.O_NOFOLLOW ?? 0);
    await writeFile(full, content, { encoding: "utf8", flag: flags });
  }

  /** A path to change: lexically inside, and every existing folder on the way really inside. */
  async #writable(root: string, plugin: string, file: string): Promise<string> {
    const full = await this.#inside(root, plugin, file);
    // Every existing part of the way must stay inside (a symlinked folder could lead out).
    let at = path.dirname(full);
    while (!(await exists(at))) at = path.dirname(at);
    if (!isInside(await realpath(at), root))
      throw new Error(`${plugin}: ${file.slice(0, 200)} leads outside the plugin folder`);
    return full;
  }

  async #root(plugin: string): Promise<string> {
    const dir = this.#folderOf(plugin);
    if (!dir) throw new Error(`no plugin named "${plugin.slice(0, 80)}"`);
    return realpath(dir);
  }

  /** The lexical path inside the plugin folder, or a one-line refusal. */
  async #inside(root: string, plugin: string, file: string): Promise<string> {
    const shown = file.slice(0, 200);
    if (file === "" || file.includes("\0")) throw new Error(`${plugin}: invalid file name`);
    if (path.isAbsolute(file) || /^[a-zA-Z]:/.test(file) || file.startsWith("\\"))
      throw new Error(`${plugin}: ${shown}: give a path relative to the plugin folder`);
    const parts = file.split(/[\\/]+/);
    if (parts.includes(".."))
      throw new Error(
        `${plugin}: ${shown}: ".." is not allowed; paths stay inside the plugin folder`,
      );
    const full = path.join(root, ...parts);
    if (!isInside(full, root)) throw new Error(`${plugin}: ${shown} is outside the plugin folder`);
    return full;
  }
}

const isManifest = (root: string, full: string) => full === path.join(root, MANIFEST_NAME);
const toPosix = (p: string) => p.split(path.sep).join("/");

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}
