/**
 * Session ids: `YYYYMMDD-HHMMSS-xxxxxx` — UTC creation time to the second, then 6 random base36
 * characters. Chosen over uuid v7 because people read and type these (`islet run --session
 * 20261121-2359`): they sort by creation time as plain strings, say when the session began, and any
 * unique prefix resolves like a git short id. 36^6 ≈ 2.2e9 suffixes make a clash within one second
 * negligible, and `create` opens with O_EXCL so a clash fails loudly instead of overwriting.
 */
import { randomBytes } from "node:crypto";

const ID_PATTERN = /^\d{8}-\d{6}-[0-9a-z]{6}$/;
/** What a prefix (or an imported/older id) may contain: no separators, dots or path tricks. */
const SAFE_ID_CHARS = /^[A-Za-z0-9_-]+$/;

function pad(n: number, width = 2): string {
  return String(n).padStart(width, "0");
}

function randomSuffix(length = 6): string {
  const bytes = randomBytes(length);
  let out = "";
  for (const b of bytes) out += (b % 36).toString(36);
  return out;
}

export function newSessionId(now: Date = new Date()): string {
  const date = `${now.getUTCFullYear()}${pad(now.getUTCMonth() + 1)}${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}${pad(now.getUTCMinutes())}${pad(now.getUTCSeconds())}`;
  return `${date}-${time}-${randomSuffix()}`;
}

export function isCanonicalSessionId(id: string): boolean {
  return ID_PATTERN.test(id);
}

/** Ids (and prefixes) become file names, so anything that could escape the folder is refused. */
export function isSafeSessionId(id: string): boolean {
  return SAFE_ID_CHARS.test(id) && id.length <= 128;
}
