/** Sizes, rates and times as the Models screen shows them (decimal units, as downloads are sized). */

export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(1)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} kB`;
  return `${Math.round(bytes)} B`;
}

export function formatDuration(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return "";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

export function formatParameters(n: number | null): string {
  if (!n) return "";
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B parameters`;
  if (n >= 1e6) return `${Math.round(n / 1e6)}M parameters`;
  return `${Math.round(n / 1e3)}K parameters`;
}

export const FIT_LABEL = {
  fits: "Fits",
  tight: "Tight fit",
  "too-big": "Too big",
} as const;

export const FIT_DETAIL = {
  fits: "fits in this machine's memory",
  tight: "fits if other programs are closed",
  "too-big": "needs more memory than this machine has",
} as const;
