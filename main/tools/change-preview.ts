/**
 * What a Write or Patch call would do to its file, for the approval question: the text on disk
 * (bounded: a huge or binary file is named, not sent) and the text after, worked out the way the
 * tool will (Patch: every occurrence when replace_all, else the one occurrence it requires).
 */
import fs from "node:fs/promises";
import type { FileChange } from "../host/questions.ts";
import { looksBinary } from "./builtin/files.ts";
import { displayPath, resolveToolPath } from "./workpath.ts";

/** Larger files are not sent to the question: a diff of them would not be read anyway. */
export const CHANGE_PREVIEW_MAX = 512 * 1024;

const text = (v: unknown): string | null => (typeof v === "string" ? v : null);

export async function previewChange(
  tool: string,
  args: Record<string, unknown>,
  workdir: string,
): Promise<FileChange | undefined> {
  if (tool !== "Write" && tool !== "Patch") return undefined;
  const target = text(args.path);
  if (!target) return undefined;
  const file = resolveToolPath(workdir, target);
  const shown = displayPath(workdir, file);
  const written = tool === "Write" ? text(args.content) : null;
  if (tool === "Write" && written === null) return undefined;
  const after = (before: string | null): string | null => {
    if (tool === "Write") return written;
    const oldText = text(args.old_string);
    const newText = text(args.new_string);
    if (before === null || !oldText || newText === null) return null;
    const parts = before.split(oldText);
    if (parts.length < 2 || (parts.length > 2 && args.replace_all !== true)) return null;
    return parts.join(newText);
  };
  let info: Awaited<ReturnType<typeof fs.stat>>;
  try {
    info = await fs.stat(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT")
      return { path: shown, before: null, after: after(null) };
    return { path: shown, before: null, after: null, note: "unreadable" };
  }
  if (!info.isFile()) return { path: shown, before: null, after: null, note: "unreadable" };
  if (info.size > CHANGE_PREVIEW_MAX)
    return { path: shown, before: null, after: null, note: "too-large", size: info.size };
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(file);
  } catch {
    return { path: shown, before: null, after: null, note: "unreadable" };
  }
  if (looksBinary(bytes))
    return { path: shown, before: null, after: null, note: "binary", size: info.size };
  const before = bytes.toString("utf8");
  const result = after(before);
  return {
    path: shown,
    before,
    after: result,
    ...(result === null ? { note: "not-found-in-file" as const } : {}),
  };
}
