/**
 * URL catalogs: fetched with a time limit and a size limit, and kept under the global home
 * (`cache/catalogs/`) so that offline, or when the server fails, the last copy is still listed
 * (and said to be a cached copy). A copy fetched recently is used without asking again.
 */
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { writeAtomically } from "../../config/atomic-write.ts";

export const FETCH_TIMEOUT_MS = 10_000;
/** A cached copy younger than this is used as is (the Catalog tab lists often). */
export const FRESH_MS = 10 * 60_000;
const MAX_BYTES = 1024 * 1024;

const Cached = z.object({ url: z.string(), fetchedAt: z.string(), text: z.string() });
type Cached = z.infer<typeof Cached>;

export interface FetchOptions {
  globalHome: string;
  timeoutMs?: number;
  maxAgeMs?: number;
  /** Fetch even when the cached copy is fresh. */
  refresh?: boolean;
  fetch?: typeof fetch;
  now?: () => Date;
}

export type Fetched =
  | { text: string; fetchedAt: string; cached: false }
  /** The server could not be reached (or failed): the last copy, and why no fresh one. */
  | { text: string; fetchedAt: string; cached: true; why: string }
  | { error: string };

export function cacheFile(globalHome: string, url: string): string {
  const hash = createHash("sha256").update(url).digest("hex").slice(0, 24);
  return path.join(globalHome, "cache", "catalogs", `${hash}.json`);
}

async function readCache(file: string, url: string): Promise<Cached | null> {
  try {
    const parsed = Cached.safeParse(JSON.parse(await fs.readFile(file, "utf8")));
    return parsed.success && parsed.data.url === url ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Why a fetch failed, in a few words (undici hides the reason in `cause`). */
function reason(err: unknown, timeoutMs: number): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError" || e.name === "AbortError")
    return `no answer within ${timeoutMs < 1000 ? `${timeoutMs} ms` : `${Math.round(timeoutMs / 1000)} s`}`;
  const code = e.cause?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found";
  if (code === "ECONNRESET") return "connection reset";
  return e.cause?.message ?? e.message;
}

async function download(url: string, timeoutMs: number, fetchImpl: typeof fetch): Promise<string> {
  const signal = AbortSignal.timeout(timeoutMs);
  const res = await fetchImpl(url, {
    signal,
    redirect: "follow",
    headers: { accept: "application/yaml, text/yaml, text/plain;q=0.9, */*;q=0.5" },
  });
  if (!res.ok || !res.body) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) {
      await res.body.cancel().catch(() => undefined);
      throw new Error(`larger than ${MAX_BYTES / 1024} KB`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The catalog at `url`: fresh from the cache, else fetched (and cached when `usable` says the
 * text is a catalog, so an error page never replaces a good copy), else the last copy.
 */
export async function fetchCatalog(
  url: string,
  usable: (text: string) => boolean,
  opts: FetchOptions,
): Promise<Fetched> {
  const file = cacheFile(opts.globalHome, url);
  const now = opts.now ?? (() => new Date());
  const timeoutMs = opts.timeoutMs ?? FETCH_TIMEOUT_MS;
  const cached = await readCache(file, url);
  const age = cached ? now().getTime() - Date.parse(cached.fetchedAt) : Infinity;
  if (cached && !opts.refresh && age >= 0 && age < (opts.maxAgeMs ?? FRESH_MS))
    return { text: cached.text, fetchedAt: cached.fetchedAt, cached: false };
  let why: string;
  try {
    const text = await download(url, timeoutMs, opts.fetch ?? fetch);
    const fetchedAt = now().toISOString();
    if (usable(text)) {
      await writeAtomically(file, `${JSON.stringify({ url, fetchedAt, text })}\n`).catch(
        () => undefined,
      );
      return { text, fetchedAt, cached: false };
    }
    if (!cached) return { text, fetchedAt, cached: false };
    why = "the server sent something that is not a catalog";
  } catch (err) {
    why = reason(err, timeoutMs);
  }
  if (cached) return { text: cached.text, fetchedAt: cached.fetchedAt, cached: true, why };
  return { error: `${url}: could not fetch the catalog (${why}); check the URL and your network` };
}
