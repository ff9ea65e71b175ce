/**
 * The bundle cache: per plugin entry, a small JSON record (the content hash of every file that
 * went into the bundle) and the bundle itself in a file of its own, so a warm load reads the code
 * as text instead of unescaping it from JSON. A warm load re-hashes the inputs and never starts
 * esbuild; any changed, added-back or vanished input sends the load back to esbuild.
 */
import { hash as digest } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";

/** Bump when the cache layout changes. */
const CACHE_FORMAT = 2;

export interface BundleMessage {
  /** Absolute path; the entry when esbuild gave no location. */
  file: string;
  /** 1-based; 0 when unknown. */
  line: number;
  /** 1-based; 0 when unknown. */
  column: number;
  text: string;
}

export interface CacheRecord {
  format: number;
  key: string;
  /** Hash over key + every input's hash: identifies this exact bundle. */
  hash: string;
  /** Absolute path → content hash, or null for a file that must stay absent (e.g. tsconfig.json). */
  inputs: Record<string, string | null>;
  warnings: BundleMessage[];
  /** The code's file name in the cache dir. */
  codeFile: string;
}

export interface CacheHit {
  record: CacheRecord;
  code: string;
}

export function hashBytes(data: string | Buffer): string {
  return digest("sha256", data, "hex");
}

export interface FileState {
  /** Content hash, or null when the file does not exist (or cannot be read). */
  hash: string | null;
  mtimeMs: number;
}

/**
 * Synchronous on purpose: for a hundred small files, sync reads take a third of the time of the
 * same reads through the thread pool, and the warm path is nothing but these reads.
 */
export function fileState(file: string): FileState {
  try {
    const mtimeMs = statSync(file).mtimeMs;
    return { hash: hashBytes(readFileSync(file)), mtimeMs };
  } catch {
    return { hash: null, mtimeMs: 0 };
  }
}

function recordFile(cacheDir: string, key: string): string {
  return path.join(cacheDir, `${key.slice(0, 32)}.json`);
}

export function bundleHash(key: string, inputs: Record<string, string | null>): string {
  const parts = Object.keys(inputs)
    .sort()
    .map((f) => `${f}\0${inputs[f] ?? "-"}`);
  return hashBytes(`${key}\n${parts.join("\n")}`);
}

// The record and the code are read synchronously too, for the reason given at fileState.
function readRecord(cacheDir: string, key: string): CacheRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(recordFile(cacheDir, key), "utf8")) as CacheRecord;
    return record.format === CACHE_FORMAT && record.key === key ? record : undefined;
  } catch {
    return undefined;
  }
}

/** The cached bundle for `key` if every recorded input still hashes the same; else undefined. */
export async function readCache(cacheDir: string, key: string): Promise<CacheHit | undefined> {
  const record = readRecord(cacheDir, key);
  if (!record) return undefined;
  for (const [file, expected] of Object.entries(record.inputs)) {
    if (fileState(file).hash !== expected) return undefined;
  }
  try {
    return { record, code: readFileSync(path.join(cacheDir, record.codeFile), "utf8") };
  } catch {
    return undefined; // replaced by a concurrent writer: rebuild
  }
}

async function writeAtomic(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(tmp, data);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/**
 * Code first, then the record that points at it, each written atomically, so a reader sees either
 * the old pair or the new one. The previous code file is removed afterwards.
 */
export async function writeCache(
  cacheDir: string,
  entry: Omit<CacheRecord, "format" | "codeFile">,
  code: string,
): Promise<void> {
  const codeFile = `${entry.key.slice(0, 32)}.${entry.hash.slice(0, 16)}.mjs`;
  try {
    await mkdir(cacheDir, { recursive: true });
    const previous = readRecord(cacheDir, entry.key);
    await writeAtomic(path.join(cacheDir, codeFile), code);
    const record: CacheRecord = { format: CACHE_FORMAT, ...entry, codeFile };
    await writeAtomic(recordFile(cacheDir, entry.key), JSON.stringify(record));
    if (previous && previous.codeFile !== codeFile) {
      await rm(path.join(cacheDir, previous.codeFile), { force: true });
    }
  } catch {
    // A cache that cannot be written only costs the next load a rebuild.
  }
}
