/**
 * A hand-written check of a `stats` record, mirroring `recordSchemas.stats` in records.ts. One is
 * written after every turn, when zod's code has gone cold while the model answered: zod took
 * ~90 µs a record there against a few for this. records.test.ts checks both agree.
 */
import { isPlainObject } from "./message-check.ts";

const COUNTS = [
  "duration",
  "interactions",
  "turns",
  "iterations",
  "parseRetries",
  "compactions",
] as const;
const PAIRS = [
  ["tools", ["calls", "errors"]],
  ["tokens", ["in", "out"]],
] as const;

const isCount = (x: unknown): boolean => typeof x === "number" && Number.isFinite(x);

/** Why `record` is not a stats record (`where: what`), or null when it is one. */
export function statsRecordProblem(record: Readonly<Record<string, unknown>>): string | null {
  const stats = record.stats;
  if (!isPlainObject(stats)) return "stats: must be an object";
  if (typeof stats.startTime !== "string") return "stats.startTime: must be a string";
  for (const key of COUNTS) {
    if (!isCount(stats[key])) return `stats.${key}: must be a finite number`;
  }
  for (const [key, fields] of PAIRS) {
    const pair = stats[key];
    if (!isPlainObject(pair)) return `stats.${key}: must be an object`;
    for (const field of fields) {
      if (!isCount(pair[field])) return `stats.${key}.${field}: must be a finite number`;
    }
  }
  if (!Array.isArray(stats.topTools)) return "stats.topTools: must be an array";
  for (const [i, tool] of (stats.topTools as unknown[]).entries()) {
    if (!isPlainObject(tool) || typeof tool.name !== "string" || !isCount(tool.count))
      return `stats.topTools.${i}: must be a name and a finite count`;
  }
  if (record.lastApiTokens !== undefined && !isCount(record.lastApiTokens))
    return "lastApiTokens: must be a finite number";
  return null;
}
