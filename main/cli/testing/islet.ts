/** Test support: the real `islet` binary in a child process, and throwaway homes. */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../../bin/islet.js", import.meta.url));
export const PRELOAD = fileURLToPath(new URL("./record-connections.mjs", import.meta.url));

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

export function islet(
  args: string[],
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--no-node-snapshot", ...nodeArgs, BIN, ...args],
      { env: { ...process.env, NO_COLOR: "1", ...env }, timeout: 30_000 },
      (err, stdout, stderr) => {
        const code = err ? ((err as { code?: number }).code ?? 1) : 0;
        resolve({ code: typeof code === "number" ? code : 1, stdout, stderr });
      },
    );
  });
}

export async function tempDirs() {
  const root = await mkdtemp(path.join(tmpdir(), "islet-cli-"));
  return {
    root,
    home: path.join(root, "home"),
    workdir: root,
    clean: () => rm(root, { recursive: true, force: true }),
  };
}
