/**
 * Where a pack is assembled before it is installed: a dot-folder in the plugins dir (the loader
 * and the watcher skip dot-folders; the same file system, so installing is a rename). Removing a
 * pack and swapping in an update go through dot-folders too, so the loader never sees half of
 * one. Leftovers of a process that died mid-operation are swept on the next operation.
 */
import { mkdir, mkdtemp, readdir, rename, rm, lstat } from "node:fs/promises";
import path from "node:path";
import { processAlive } from "../config/process-lock.ts";
import { PackError } from "./types.ts";

const PREFIXES = [".islet-staging-", ".islet-old-", ".islet-removing-"] as const;

const removeTree = (dir: string) => rm(dir, { recursive: true, force: true, maxRetries: 3 });

/** Removes the dot-folders of operations whose process is gone. */
export async function sweepLeftovers(pluginsDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(pluginsDir);
  } catch {
    return;
  }
  await Promise.all(
    names.map(async (name) => {
      const prefix = PREFIXES.find((p) => name.startsWith(p));
      if (!prefix) return;
      const pid = Number.parseInt(name.slice(prefix.length), 10);
      // Ours (another operation of this process) or a live process's: not a leftover.
      if (Number.isInteger(pid) && (pid === process.pid || processAlive(pid))) return;
      await removeTree(path.join(pluginsDir, name)).catch(() => undefined);
    }),
  );
}

export interface Staging {
  /** The staging dot-folder. */
  dir: string;
  /** Where the pack is assembled: a folder named as the pack will be (a root plugin takes its name). */
  pack: string;
  /** Removes the staging folder and everything in it. */
  dispose(): Promise<void>;
}

export async function createStaging(pluginsDir: string, name: string): Promise<Staging> {
  await mkdir(pluginsDir, { recursive: true });
  await sweepLeftovers(pluginsDir);
  const dir = await mkdtemp(path.join(pluginsDir, `${PREFIXES[0]}${process.pid}-`));
  return { dir, pack: path.join(dir, name), dispose: () => removeTree(dir) };
}

export async function exists(p: string): Promise<boolean> {
  try {
    await lstat(p);
    return true;
  } catch {
    return false;
  }
}

/** Installs a staged pack at `target`, which must not exist. */
export async function moveIntoPlace(staged: string, target: string): Promise<void> {
  if (await exists(target))
    throw new PackError(`${target} appeared while installing: remove it or pick another --name`);
  try {
    await rename(staged, target);
  } catch (err) {
    throw new PackError(
      `cannot move the pack into ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
}

/**
 * Replaces the installed `target` with `staged`. The old copy is moved aside first and put back if
 * the new one cannot be moved in, so a failure leaves the old version installed. Resolves once the
 * new version is in place; `oldCopyRemoved` settles when the old copy is deleted (the caller
 * hands it to the operation's tidying; a failure leaves a dot-folder the next operation sweeps).
 */
export async function swapInto(
  staged: string,
  target: string,
  pluginsDir: string,
): Promise<{ oldCopyRemoved: Promise<void> }> {
  const aside = await mkdtemp(path.join(pluginsDir, `${PREFIXES[1]}${process.pid}-`));
  const old = path.join(aside, "pack");
  try {
    await rename(target, old);
  } catch (err) {
    await removeTree(aside);
    throw new PackError(
      `cannot move the installed ${target} aside: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  try {
    await rename(staged, target);
  } catch (err) {
    await rename(old, target);
    await removeTree(aside);
    throw new PackError(
      `cannot move the update into ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)} (the old version is still installed)`,
    );
  }
  return { oldCopyRemoved: removeTree(aside).catch(() => undefined) };
}

/** Removes an installed pack: moved out of the loader's sight first, then deleted. */
export async function removeInstalled(target: string, pluginsDir: string): Promise<void> {
  const aside = await mkdtemp(path.join(pluginsDir, `${PREFIXES[2]}${process.pid}-`));
  try {
    await rename(target, path.join(aside, "pack"));
  } catch (err) {
    await removeTree(aside);
    throw new PackError(
      `cannot remove ${target}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`,
    );
  }
  await removeTree(aside);
}
