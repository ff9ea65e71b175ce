/**
 * Pack progress at a terminal: one line per phase (cloning, vendoring, building…), and git's
 * percentages overwriting each other on one line, at most every 100 ms. Nothing when the stream
 * is not a terminal (a log or a pipe gets only the result).
 */
import type { PackProgress } from "../packs/index.ts";

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

const EVERY_MS = 100;
const CLEAR = "\r\x1b[K";

export function progressPrinter(
  stream: ProgressStream,
  now: () => number = Date.now,
): ((p: PackProgress) => void) | undefined {
  if (!stream.isTTY) return undefined;
  let inline = false;
  let last = -Infinity;
  return (p) => {
    if (p.phase === "done") return;
    if (p.fraction !== undefined && p.fraction < 1) {
      const t = now();
      if (t - last < EVERY_MS) return;
      last = t;
      stream.write(`${CLEAR}${p.message}`);
      inline = true;
      return;
    }
    stream.write(`${inline ? CLEAR : ""}${p.message}\n`);
    inline = false;
  };
}
