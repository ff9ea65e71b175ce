/** Writing a whole file so readers see the old or the new content, never half. */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";

/** Write to a temp file beside the target, then rename. `mode` applies to a new file. */
export async function writeAtomically(
  file: string,
  content: string,
  opts: { mode?: number } = {},
): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await fs.writeFile(temp, content, { encoding: "utf8", mode: opts.mode });
    await fs.rename(temp, file);
  } catch (err) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw err;
  }
}
