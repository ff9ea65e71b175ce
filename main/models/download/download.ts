/**
 * One resumable, checked download: the bytes go to `<dest>.partial`, resumed with an HTTP Range
 * request after an interruption, hashed as they arrive (sha256, including the part already on
 * disk), and renamed to `<dest>` only when whole and matching. Free space is checked before any
 * byte is written. Every failure is one DownloadError line; a checksum mismatch deletes the
 * partial file, anything else keeps it for the next attempt.
 */
import { createHash, type Hash } from "node:crypto";
import { createReadStream } from "node:fs";
import { mkdir, open, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { ModelFileError } from "../errors.ts";
import { formatBytes } from "../memory.ts";
import { freeBytes as statfsFree, type FreeBytes } from "./disk.ts";
import { acquireProcessLock, LockBusyError, type ProcessLock } from "../../config/process-lock.ts";
import { progressOf, RateMeter, type DownloadProgress } from "./progress.ts";

export type DownloadFailure =
  | "not-found"
  | "http"
  | "network"
  | "no-space"
  | "disk-full"
  | "checksum"
  | "size"
  | "cancelled"
  | "busy";

export class DownloadError extends ModelFileError {
  readonly kind: DownloadFailure;
  constructor(kind: DownloadFailure, message: string) {
    super(message);
    this.kind = kind;
    this.name = "DownloadError";
  }
}

export interface DownloadOptions {
  url: string;
  /** The finished file; the download in progress is `${dest}.partial`. */
  dest: string;
  /** What to call it in messages (a model name); default: the file name. */
  label?: string;
  sha256?: string;
  /** Expected size in bytes, when known beforehand (the catalog's): not a byte more is taken. */
  size?: number;
  /** Most bytes taken when `size` is not known (a URL pull); default maxDownloadBytes(). */
  maxBytes?: number;
  signal?: AbortSignal;
  onProgress?(p: DownloadProgress): void;
  /** Free space in a folder (tests inject a figure); default: statfs. */
  freeBytes?: FreeBytes;
  /** Until the response headers arrive (default 30 s). */
  connectTimeoutMs?: number;
  /** Longest pause between two chunks of the body (default 60 s). */
  idleTimeoutMs?: number;
  /** Least time between two progress reports (default 250 ms); the last one always comes. */
  progressIntervalMs?: number;
}

export interface DownloadResult {
  file: string;
  size: number;
  sha256: string;
  resumedFrom: number;
}

/** The CLI's advice at the end of a resumable failure; the app shows a Resume button instead. */
export const AGAIN = "run the same command again to resume";
const GB = 1024 ** 3;
const DEFAULT_MAX_DOWNLOAD_GB = 64;

/**
 * The most a download of unknown size may write: ISLET_MAX_DOWNLOAD_GB, or 64 GiB (above the
 * largest single-file GGUF a desktop runs), so a server that never stops cannot fill the disk.
 */
export function maxDownloadBytes(env: NodeJS.ProcessEnv = process.env): number {
  const set = Number(env.ISLET_MAX_DOWNLOAD_GB);
  return (Number.isFinite(set) && set > 0 ? set : DEFAULT_MAX_DOWNLOAD_GB) * GB;
}

async function hashFile(file: string, hash: Hash, signal?: AbortSignal): Promise<void> {
  for await (const chunk of createReadStream(file, { signal })) hash.update(chunk as Buffer);
}

function causeCode(err: unknown): string {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return (err as Error)?.message ?? String(err);
}

/** Total size from `Content-Range: bytes a-b/total`. */
function rangeTotal(header: string | null): { start: number; total: number | null } | null {
  const m = header?.match(/^bytes (\d+)-\d+\/(\d+|\*)$/);
  if (!m) return null;
  return { start: Number(m[1]), total: m[2] === "*" ? null : Number(m[2]) };
}

/**
 * Downloads `opts.url` to `opts.dest`; DownloadError "busy" (one line, nothing touched) while
 * another process (or another download in this one) writes the same partial file.
 */
export async function download(opts: DownloadOptions): Promise<DownloadResult> {
  const label = opts.label ?? path.basename(opts.dest);
  const partial = `${opts.dest}.partial`;
  await mkdir(path.dirname(opts.dest), { recursive: true });
  let lock: ProcessLock;
  try {
    // Not waited for: a second pull of the same model says so at once.
    lock = await acquireProcessLock(`${partial}.lock`, `downloading ${label}`, 0);
  } catch (err) {
    if (!(err instanceof LockBusyError)) throw err;
    const pid = err.holder?.pid;
    const who = pid === process.pid ? "this process" : pid ? `process ${pid}` : "another process";
    throw new DownloadError(
      "busy",
      `${label}: already being downloaded by ${who} (into ${partial}) — wait for it to finish, or stop it and pull again`,
    );
  }
  try {
    return await transfer(opts, label, partial, 0);
  } finally {
    await lock.release();
  }
}

async function transfer(
  opts: DownloadOptions,
  label: string,
  partial: string,
  restarts: number,
): Promise<DownloadResult> {
  const dir = path.dirname(opts.dest);
  const free = opts.freeBytes ?? statfsFree;

  let existing = (await stat(partial).catch(() => null))?.size ?? 0;
  if (opts.size !== undefined && existing > opts.size) {
    await rm(partial, { force: true });
    existing = 0;
  }
  const checkSpace = async (total: number | null) => {
    if (total === null) return;
    const need = total - existing;
    const available = await free(dir);
    if (available < need) {
      throw new DownloadError(
        "no-space",
        `${label}: not enough disk space: needs ${formatBytes(need)}, ${formatBytes(available)} free in ${dir} — free some space and try again`,
      );
    }
  };
  await checkSpace(opts.size ?? null);

  const connect = AbortSignal.timeout(opts.connectTimeoutMs ?? 30_000);
  const idle = new AbortController();
  const signals = [idle.signal, ...(opts.signal ? [opts.signal] : [])];
  const cancelled = () => opts.signal?.aborted === true;
  const kept = () =>
    `${formatBytes(existing)}${opts.size ? ` of ${formatBytes(opts.size)}` : ""} kept in ${partial}`;

  let res: Response;
  try {
    res = await fetch(opts.url, {
      headers: existing > 0 ? { range: `bytes=${existing}-` } : {},
      signal: AbortSignal.any([connect, ...signals]),
    });
  } catch (err) {
    if (cancelled())
      throw new DownloadError("cancelled", `${label}: download cancelled; ${kept()} — ${AGAIN}`);
    const why = connect.aborted ? "no answer in time" : causeCode(err);
    throw new DownloadError(
      "network",
      `${label}: cannot reach ${new URL(opts.url).host} (${why}) — check the network connection and ${AGAIN}`,
    );
  }

  if (res.status === 416 && existing > 0) {
    // The partial file already holds everything the server has (or more): check what we have.
    const total = rangeTotal(res.headers.get("content-range"))?.total ?? existing;
    await res.body?.cancel();
    if (total === existing) return finish(opts, label, partial, existing, null, existing);
    return restart(opts, label, partial, restarts);
  }
  if (res.status === 404 || res.status === 410) {
    await res.body?.cancel();
    throw new DownloadError(
      "not-found",
      `${label}: not found at ${opts.url} (HTTP ${res.status}) — check the model name or URL (\`islet models list\` shows the catalog)`,
    );
  }
  if (res.status === 401 || res.status === 403) {
    await res.body?.cancel();
    throw new DownloadError(
      "http",
      `${label}: the server refused the download (HTTP ${res.status}) — the model may need you to accept its licence on its web page; download it there and copy the .gguf file into ${dir}`,
    );
  }
  if (res.status !== 200 && res.status !== 206) {
    await res.body?.cancel();
    throw new DownloadError(
      "http",
      `${label}: the server answered HTTP ${res.status} for ${opts.url} — try again later`,
    );
  }

  let total: number | null;
  if (res.status === 206) {
    const range = rangeTotal(res.headers.get("content-range"));
    if (!range || range.start !== existing) {
      await res.body?.cancel();
      return restart(opts, label, partial, restarts);
    }
    total = range.total;
  } else {
    // 200: the server sent the whole file (it ignores Range, or nothing was on disk).
    if (existing > 0) await rm(partial, { force: true });
    existing = 0;
    const length = res.headers.get("content-length");
    total = length === null ? null : Number(length);
  }
  if (opts.size !== undefined && total !== null && total !== opts.size) {
    await res.body?.cancel();
    throw new DownloadError(
      "size",
      `${label}: the server offers ${total} bytes, expected ${opts.size} — the file at ${opts.url} is not the one the catalog names; nothing was downloaded`,
    );
  }
  // The catalog's size, or the cap for a URL: a server that sends more is not sending the file.
  const limit = opts.size ?? opts.maxBytes ?? maxDownloadBytes();
  const tooBig = () =>
    opts.size !== undefined
      ? `${label}: the server sent more than the catalog's ${formatBytes(opts.size)} — the file at ${opts.url} is not the one the catalog names; the download was deleted`
      : `${label}: the file at ${opts.url} is larger than ${formatBytes(limit)}, the most a download may take (ISLET_MAX_DOWNLOAD_GB raises it); the download was deleted`;
  if (total !== null && total > limit) {
    await res.body?.cancel();
    throw new DownloadError(
      "size",
      tooBig().replace("the download was deleted", "nothing was downloaded"),
    );
  }
  try {
    await checkSpace(total);
  } catch (err) {
    await res.body?.cancel();
    throw err;
  }

  const hash = createHash("sha256");
  try {
    if (existing > 0) await hashFile(partial, hash, opts.signal);
  } catch (err) {
    await res.body?.cancel();
    if (cancelled())
      throw new DownloadError("cancelled", `${label}: download cancelled; ${kept()} — ${AGAIN}`);
    throw err;
  }
  const resumedFrom = existing;
  let received = existing;
  const meter = new RateMeter();
  let lastReport = 0;
  const interval = opts.progressIntervalMs ?? 250;
  const report = (force: boolean) => {
    const now = performance.now();
    if (!force && now - lastReport < interval) return;
    lastReport = now;
    opts.onProgress?.(
      progressOf(received, total, resumedFrom, meter.sample(received - resumedFrom)),
    );
  };
  report(true);

  const fh = await open(partial, existing > 0 ? "a" : "w");
  let timer: NodeJS.Timeout | undefined;
  const armIdle = () => {
    clearTimeout(timer);
    timer = setTimeout(() => idle.abort(new Error("no data")), opts.idleTimeoutMs ?? 60_000);
  };
  let overLimit = false;
  try {
    armIdle();
    if (!res.body) throw new Error("empty response");
    for await (const chunk of res.body) {
      armIdle();
      if (received + chunk.length > limit) {
        overLimit = true;
        break;
      }
      await fh.write(chunk);
      hash.update(chunk);
      received += chunk.length;
      existing = received;
      report(false);
    }
  } catch (err) {
    const code = causeCode(err);
    if (code === "ENOSPC") {
      throw new DownloadError(
        "disk-full",
        `${label}: the disk is full (${kept()}) — free some space and ${AGAIN}`,
      );
    }
    if (cancelled())
      throw new DownloadError("cancelled", `${label}: download cancelled; ${kept()} — ${AGAIN}`);
    const why = idle.signal.aborted ? "no data for a while" : code;
    throw new DownloadError(
      "network",
      `${label}: the download broke off (${why}); ${kept()} — ${AGAIN}`,
    );
  } finally {
    clearTimeout(timer);
    await fh.close();
  }
  if (overLimit) {
    await rm(partial, { force: true });
    throw new DownloadError("size", tooBig());
  }
  report(true);
  if (total !== null && received < total) {
    throw new DownloadError(
      "network",
      `${label}: the connection closed early; ${kept()} — ${AGAIN}`,
    );
  }
  return finish(opts, label, partial, received, hash, resumedFrom);
}

/** The partial file does not fit what the server has: start from nothing, once. */
async function restart(
  opts: DownloadOptions,
  label: string,
  partial: string,
  restarts: number,
): Promise<DownloadResult> {
  await rm(partial, { force: true });
  if (restarts > 0) {
    throw new DownloadError(
      "http",
      `${label}: the server at ${new URL(opts.url).host} does not resume downloads consistently — try again later`,
    );
  }
  return transfer(opts, label, partial, restarts + 1);
}

async function finish(
  opts: DownloadOptions,
  label: string,
  partial: string,
  size: number,
  hash: Hash | null,
  resumedFrom: number,
): Promise<DownloadResult> {
  let digest: string;
  if (hash) digest = hash.digest("hex");
  else {
    const h = createHash("sha256");
    await hashFile(partial, h, opts.signal);
    digest = h.digest("hex");
  }
  if (opts.sha256 && digest !== opts.sha256.toLowerCase()) {
    await rm(partial, { force: true });
    throw new DownloadError(
      "checksum",
      `${label}: checksum mismatch (sha256 ${digest}, expected ${opts.sha256}); the download was deleted — try again, and if it happens again the file on the server has changed`,
    );
  }
  await rename(partial, opts.dest);
  return { file: opts.dest, size, sha256: digest, resumedFrom };
}
