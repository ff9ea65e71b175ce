/**
 * Download progress as a person reads it: bytes so far of the total, the rate over the last
 * few seconds (not since the start, so a resumed or stalled download shows what is happening
 * now) and the time left at that rate.
 */

export interface DownloadProgress {
  received: number;
  /** null when the server did not say. */
  total: number | null;
  /** Bytes that were already on disk from an earlier attempt. */
  resumedFrom: number;
  bytesPerSecond: number;
  /** null until there is a rate to go by, or without a total. */
  secondsLeft: number | null;
}

const WINDOW_MS = 5000;

export class RateMeter {
  readonly #samples: [number, number][] = [];
  readonly #now: () => number;

  constructor(now: () => number = () => performance.now()) {
    this.#now = now;
  }

  /** Records `received` bytes at the current time and returns the rate in bytes/s. */
  sample(received: number): number {
    const t = this.#now();
    this.#samples.push([t, received]);
    while (this.#samples.length > 2 && t - this.#samples[0][0] > WINDOW_MS) this.#samples.shift();
    const [t0, b0] = this.#samples[0];
    return t > t0 ? ((received - b0) * 1000) / (t - t0) : 0;
  }
}

export function progressOf(
  received: number,
  total: number | null,
  resumedFrom: number,
  bytesPerSecond: number,
): DownloadProgress {
  const secondsLeft =
    total !== null && bytesPerSecond > 0 ? Math.max(0, (total - received) / bytesPerSecond) : null;
  return { received, total, resumedFrom, bytesPerSecond, secondsLeft };
}

/** "1:05" / "1:02:05"; "" when unknown. */
export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}
