/** Markdown files under a folder, sorted, sub-folders included (a missing folder is empty). */
import { readdirSync } from "node:fs";
import path from "node:path";

export interface FoundFile {
  file: string;
  /** Sub-folder path relative to the root ("" at the top), e.g. "frontend/forms". */
  folder: string;
}

export function markdownFiles(dir: string, maxDepth = 4): FoundFile[] {
  const out: FoundFile[] = [];
  const visit = (folder: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(path.join(dir, folder), { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".")) continue;
      const rel = folder ? `${folder}/${e.name}` : e.name;
      if (e.isDirectory() && depth < maxDepth) visit(rel, depth + 1);
      else if (e.isFile() && e.name.toLowerCase().endsWith(".md"))
        out.push({ file: path.join(dir, rel), folder });
    }
  };
  visit("", 0);
  return out;
}
