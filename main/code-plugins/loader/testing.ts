/** Test helpers: real temp folders holding plugins. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

export interface TempDir {
  root: string;
  /** Writes files (relative path → content) below root, creating folders; returns absolute root. */
  write(files: Record<string, string>): string;
  path(...parts: string[]): string;
  remove(): void;
}

export function tempDir(prefix = "islet-loader-"): TempDir {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  return {
    root,
    write(files) {
      for (const [rel, content] of Object.entries(files)) {
        const full = path.join(root, rel);
        mkdirSync(path.dirname(full), { recursive: true });
        writeFileSync(full, content);
      }
      return root;
    },
    path: (...parts) => path.join(root, ...parts),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** Files for a minimal plugin folder at `dir` (relative): plugin.yaml and an index.ts. */
export function pluginFiles(dir: string, yaml = 'description: "test"\n'): Record<string, string> {
  return {
    [`${dir}/plugin.yaml`]: yaml,
    [`${dir}/index.ts`]: "export const beforeChat = (): undefined => undefined;\n",
  };
}

/** Waits until `check` holds, polling; throws after `ms` (a generous limit: tests run on loaded machines). */
export async function waitFor(check: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms`);
    await sleep(20);
  }
}
