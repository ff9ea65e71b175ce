/**
 * For tests: a fake `docker` / `podman` program (a shell script) that logs every argument vector
 * it is started with, answers `info` (or not: a daemon that is down), has the image once it was
 * pulled, and on `run` prints what it got on stdin. It lets the tests assert the exact command
 * lines a real engine would get, on a machine without one.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { RunnerWorld } from "./testing.ts";

export interface FakeEngine {
  /** A PATH holding the fake engines first, then only the system's basic programs. */
  path: string;
  /**
   * Every argument vector an engine was started with, the engine's name first; a call's unique
   * name (islet-PLUGIN-HEX) reads "{run_name}" unless `raw`.
   */
  calls(opts?: { raw?: boolean }): Promise<string[][]>;
  /** Marks the image as present (as a pull would). */
  imageFile: string;
}

export async function fakeEngines(
  w: RunnerWorld,
  engines: { name: "docker" | "podman"; down?: boolean }[],
): Promise<FakeEngine> {
  const dir = path.join(w.root, "fake-bin");
  const log = path.join(w.root, "engine.log");
  const imageFile = path.join(w.root, "image-present");
  for (const { name, down } of engines) {
    await w.script(
      path.join(dir, name),
      `#!/bin/sh
{ printf '%s' "${name}"; for a in "$@"; do printf '\\t%s' "$a"; done; printf '\\n'; } >> '${log}'
case "$1" in
  info) ${down ? `echo "Cannot connect to the ${name} daemon at unix:///var/run/${name}.sock" >&2; exit 1` : "exit 0"};;
  image) [ -f '${imageFile}' ] && exit 0; echo "Error: No such image" >&2; exit 1;;
  pull) touch '${imageFile}'; exit 0;;
  run) for a in "$@"; do [ "$a" = hang ] && exec sleep 300; done
       echo "ran in ${name}"; printf 'stdin=%s\\n' "$(cat)"; exit 0;;
  rm) exit 0;;
esac
exit 9
`,
    );
  }
  return {
    path: [dir, "/usr/bin", "/bin"].join(path.delimiter),
    imageFile,
    async calls(opts = {}) {
      const text = await readFile(log, "utf8").catch(() => "");
      const name = /^islet-.+-[0-9a-f]{8}$/;
      return text
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => l.split("\t").map((a) => (!opts.raw && name.test(a) ? "{run_name}" : a)));
    },
  };
}

/** The seed's example (seeds/004 §4), as its manifest.json. */
export const DOTNET_TEST = {
  name: "dotnet-test-plugin",
  command: "dotnet test",
  runner: "container",
  image: "mcr.microsoft.com/dotnet/sdk:6.0",
  mount: { host_path: "{working_dir}", path: "/app" },
  hooks: ["on_code_change"],
  auto_discovery: [
    {
      arg: "--help",
      description: "Invoke 'dotnet test --help' to discover testing options and capabilities",
    },
  ],
  description:
    "Runs .NET tests in a containerized environment, mounting the working directory for access to code changes. Results can be captured and analyzed by the AI.",
};
