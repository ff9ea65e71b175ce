/** File helpers shared by the built-in tools: binary sniffing and clear errors for fs failures. */
import fs from "node:fs/promises";
import { ToolError } from "../types.ts";

const SNIFF_BYTES = 8192;

/** A NUL byte in the first 8 KB is how git and grep tell binary from text; it is good enough. */
export function looksBinary(sample: Uint8Array): boolean {
  return sample.subarray(0, SNIFF_BYTES).includes(0);
}

export async function sniffBinary(file: string): Promise<boolean> {
  const handle = await fs.open(file, "r");
  try {
    const buffer = new Uint8Array(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return looksBinary(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

/** Turns Node's `ENOENT: no such file or directory, open '/x'` into a sentence about `shown`. */
export function fsError(err: unknown, shown: string): ToolError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "ENOENT":
      return new ToolError(`${shown} does not exist`);
    case "EACCES":
    case "EPERM":
      return new ToolError(`Permission denied: ${shown}`);
    case "EISDIR":
      return new ToolError(`${shown} is a directory`);
    case "ENOTDIR":
      return new ToolError(`A parent of ${shown} is not a directory`);
    default:
      return new ToolError(`${shown}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = size / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** Directories a search never enters unless asked to: dependencies and VCS internals. */
export const SKIPPED_DIRS = new Set([".git", "node_modules"]);
