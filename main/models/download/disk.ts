/** Free space where a download goes (statfs: blocks available to this user × block size). */
import { statfs } from "node:fs/promises";

export type FreeBytes = (dir: string) => Promise<number>;

export const freeBytes: FreeBytes = async (dir) => {
  const s = await statfs(dir);
  return s.bavail * s.bsize;
};
