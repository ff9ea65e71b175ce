/**
 * The bundle cache: one JSON file per plugin entry, holding the bundle and the content hash of
 * every file that went into it. A warm load re-reads and re-hashes those files and never starts
 * esbuild; any changed, added-back or vanished input sends the load back to esbuild.
 */
import { hash as digest } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** Bump when the cache file layout changes. */
const CACHE_FORMAT = 1;

export interface BundleMessage {
  /** Absolute path; the entry when esbuild gave no location. */
  file: string;
  /** 1-based; 0 when unknown. */
  line: number;
  /** 1-based; 0 when unknown. */
  column: number;
  text: string;
}

export interface CacheEntry {
  format: number;
  key: string;
  /** Hash over key + every input's hash: identifies this exact bundle. */
  hash: string;
  /** Absolute path → content hash, or null for a file that must stay absent (e.g. tsconfig.json). */
  inputs: Record<string, string | null>;
  warnings: BundleMessage[];
  code: string;
}

export function hashBytes(data: string | Buffer): string {
  return digest("sha256", data, "hex");
}

/** The hash of a file now, or null when it does not exist (or cannot be read). */
export async function hashFile(file: string): Promise<string | null> {
  try {
    return hashBytes(await readFile(file));
  } catch {
    return null;
  }
}

export function cacheFile(cacheDir: string, key: string): string {
  return path.join(cacheDir, `${key.slice(0, 32)}.json`);
}

export function bundleHash(key: string, inputs: Record<string, string | null>): string {
  const parts = Object.keys(inputs)
    .sort()
    .map((f) => `${f}\0${inputs[f] ?? "-"}`);
  return hashBytes(`${key}\n${parts.join("\n")}`);
}

/** The cached bundle for `key` if every recorded input still hashes the same; else undefined. */
export async function readCache(cacheDir: string, key: string): Promise<CacheEntry | undefined> {
  let entry: CacheEntry;
  try {
    entry = JSON.parse(await readFile(cacheFile(cacheDir, key), "utf8")) as CacheEntry;
  } catch {
    return undefined;
  }
  if (entry.format !== CACHE_FORMAT || entry.key !== key || typeof entry.code !== "string") {
    return undefined;
  }
  const files = Object.keys(entry.inputs);
  const now = await Promise.all(files.map(hashFile));
  return files.every((f, i) => now[i] === entry.inputs[f]) ? entry : undefined;
}

/** Writes atomically (temp file + rename) so a concurrent reader never sees half a bundle. */
export async function writeCache(
  cacheDir: string,
  entry: Omit<CacheEntry, "format">,
): Promise<void> {
  const file = cacheFile(cacheDir, entry.key);
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await mkdir(cacheDir, { recursive: true });
    await writeFile(tmp, JSON.stringify({ format: CACHE_FORMAT, ...entry }));
    await rename(tmp, file);
  } catch {
    // A cache that cannot be written only costs the next load a rebuild.
    await rm(tmp, { force: true });
  }
}
