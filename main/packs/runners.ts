/**
 * CLI-tool runner plugins in a pack (main/extensions/runners/): a folder with `manifest.json`, or
 * a plugin.yaml with a `runner:` key. Read by the runtime's own reader, so the consent question
 * shows the command line the runner would start, and where (this machine, or a container).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { PermissionItem } from "../host/questions.ts";
import { findPluginFolders, MANIFEST_NAME, RUNNER_MANIFEST } from "../code-plugins/loader/walk.ts";
import { readRunnerManifest, type RunnerManifest } from "../extensions/runners/manifest.ts";
import { PackError } from "./types.ts";

export interface PackRunner {
  name: string;
  dir: string;
  description: string;
  /** The program it runs, as one exec item. */
  items: PermissionItem[];
}

function where(m: RunnerManifest): string {
  if (m.runner === "native") return "on this machine";
  const image = m.image ? ` ${m.image}` : "";
  return `in a container${image}${m.network ? "" : " without network"}`;
}

/** Every runner plugin under `scope`; a manifest that does not read stops the install. */
export async function findRunners(
  scope: string,
  relabel: (text: string) => string,
): Promise<PackRunner[]> {
  const { runnerFolders } = await findPluginFolders(scope);
  const out: PackRunner[] = [];
  for (const dir of runnerFolders) {
    const json = path.join(dir, RUNNER_MANIFEST);
    const file = existsSync(json) ? json : path.join(dir, MANIFEST_NAME);
    // As written: the folder shows as {plugin_dir}, the workspace as {working_dir}.
    const read = await readRunnerManifest(file, { workingDir: "{working_dir}" });
    if (!read.ok) throw new PackError(relabelAll(read.errors[0].title, file, relabel));
    const m = read.manifest;
    const asWritten = (s: string) => s.split(dir).join("{plugin_dir}");
    out.push({
      name: m.name,
      dir,
      description: m.description,
      items: [
        {
          kind: "exec",
          target: asWritten(m.command.join(" ")),
          reason: `CLI-tool runner ${m.name}: runs this ${where(m)} when its tool is used`,
        },
      ],
    });
  }
  return out;
}

function relabelAll(title: string, file: string, relabel: (text: string) => string): string {
  return relabel(`${file}: ${title}`);
}
