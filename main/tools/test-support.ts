/** Shared by the tools' tests: a real temporary workdir and a context pointing at it. */
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { newToolSessionState } from "./types.ts";
import type { ToolContext } from "./types.ts";

export interface Workspace {
  dir: string;
  ctx: ToolContext;
  file(relative: string, content?: string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function tempWorkspace(): Promise<Workspace> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), "islet-tools-")));
  const ctx: ToolContext = {
    workdir: dir,
    signal: new AbortController().signal,
    state: newToolSessionState(),
    timeoutMs: 10_000,
  };
  return {
    dir,
    ctx,
    async file(relative, content = "") {
      const full = path.join(dir, relative);
      await fs.mkdir(path.dirname(full), { recursive: true });
      await fs.writeFile(full, content);
      return full;
    },
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

/** Sets a file's mtime to a fixed point, so "newest first" orders are deterministic. */
export async function touch(file: string, secondsAgo: number): Promise<void> {
  const when = new Date(Date.now() - secondsAgo * 1000);
  await fs.utimes(file, when, when);
}
