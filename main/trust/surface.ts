/**
 * What runs from a trusted folder (its runnable surface), recorded when it is trusted so that a
 * `git pull` adding a hook or changing an MCP server's command is asked about again instead of
 * running at the next start. Trust stays per folder; this is what it covered:
 *
 * - every command (and MCP server address) in the project's hook files, MCP configs, runner
 *   configs and Claude Code's `.mcp.json`, with the files it names in the workspace
 *   (main/trust/run-files.ts: a workspace is not walked, only named files count);
 * - every project plugin (code, Claude Code, runner): its manifests and config files (permissions,
 *   hooks, commands) and its script files;
 * - the project's features/plugins.yaml (unsafe mode lets plugins run programs).
 *
 * Reading is lenient: any `command`/`command_*` value (text or list, with a sibling `args` list)
 * or `url` counts wherever it is in the file, so a file this does not understand still counts.
 */
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { configDir, type Homes } from "../config/homes.ts";
import { walkFolder } from "../config/folder-walk.ts";
import {
  featuresFile,
  findPluginFolders,
  loadPluginFeatures,
} from "../code-plugins/loader/index.ts";
import {
  changedFiles,
  digestsOf,
  fileDigest,
  isScriptFile,
  namedFiles,
  scriptFiles,
  type RunFiles,
} from "./run-files.ts";

/** One thing that runs: how it reads to a person, its command (if any) and the files it runs. */
export interface SurfaceEntry {
  label: string;
  command?: string;
  files: RunFiles;
}

/** Key (file and place in it, or plugin folder) → entry. */
export type Surface = Record<string, SurfaceEntry>;

const CONFIG_FILE = /\.(ya?ml|json)$/i;
/** Stands for a command's environment among its files (no file has this name). */
const ENVIRONMENT = "its environment (env:)";

const COMMAND_FOLDERS: readonly { dir: string[]; what: string }[] = [
  { dir: ["config", "hooks"], what: "hook" },
  { dir: ["config", "mcp"], what: "MCP server" },
];

interface Found {
  at: string;
  argv?: string[];
  /** The variables it is started with, as written (NODE_OPTIONS can change what runs). */
  env?: string;
  url?: string;
}

const isStrings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");

/** Every command and address in a parsed config file, with where it is (a dotted path). */
function commandsIn(data: unknown, at: string[] = [], out: Found[] = []): Found[] {
  if (Array.isArray(data)) data.forEach((v, i) => commandsIn(v, [...at, String(i)], out));
  if (typeof data !== "object" || data === null || Array.isArray(data)) return out;
  const obj = data as Record<string, unknown>;
  const args = isStrings(obj.args) ? obj.args : [];
  for (const [key, value] of Object.entries(obj)) {
    if (key === "command" || key.startsWith("command_")) {
      const argv = typeof value === "string" ? [value, ...args] : isStrings(value) ? value : null;
      const env = typeof obj.env === "object" && obj.env !== null ? JSON.stringify(obj.env) : "";
      if (argv) out.push({ at: [...at, key].join("."), argv, ...(env ? { env } : {}) });
    } else if (key === "url" && typeof value === "string" && obj.command === undefined)
      out.push({ at: [...at, key].join("."), url: value });
    if (typeof value === "object") commandsIn(value, [...at, key], out);
  }
  return out;
}

/**
 * A hook's command is a shell line (its words are split); an MCP server's is a program with its
 * `args` (kept whole): both readings count.
 */
async function filesOf(argv: string[], workdir: string): Promise<string[]> {
  const [command, ...args] = argv;
  const line = await namedFiles(command, workdir);
  return args.length === 0 ? line : [...new Set([...line, ...(await namedFiles(argv, workdir))])];
}

function parse(file: string, text: string): unknown {
  try {
    return file.toLowerCase().endsWith(".json") ? JSON.parse(text) : parseYaml(text);
  } catch {
    return undefined;
  }
}

/** The commands of one config file, each with the files it names in the workspace. */
async function fileEntries(
  file: string,
  what: string,
  workdir: string,
  into: Surface,
): Promise<void> {
  const text = await readFile(file, "utf8").catch(() => null);
  if (text === null) return;
  const rel = path.relative(workdir, file).split(path.sep).join("/");
  const data = parse(file, text);
  if (data === undefined) {
    // Unreadable here, maybe readable by its loader: the whole file stands for what it runs.
    into[rel] = { label: `${what}s in ${rel}`, files: await digestsOf(workdir, [rel]) };
    return;
  }
  for (const found of commandsIn(data)) {
    const command = found.argv ? found.argv.join(" ") : `connect to ${found.url}`;
    const files = found.argv ? await digestsOf(workdir, await filesOf(found.argv, workdir)) : {};
    // Its variables' values are not copied into trust.json (they may hold tokens): a digest is.
    if (found.env) files[ENVIRONMENT] = createHash("sha256").update(found.env).digest("hex");
    into[`${rel}#${found.at}`] = { label: `${what} in ${rel} (${found.at})`, command, files };
  }
}

/** A plugin folder's manifests, config files and scripts: what it asks for and what it runs. */
async function pluginFiles(dir: string): Promise<string[]> {
  const configs: string[] = [];
  await walkFolder(dir, ({ entry: e, rel }) => {
    if (e.isFile() && CONFIG_FILE.test(e.name) && !isScriptFile(e.name)) configs.push(rel);
  });
  return [...configs, ...(await scriptFiles(dir))];
}

/** What runs from the project's `.islet/` and `.mcp.json` now. */
export async function runnableSurface(homes: Homes): Promise<Surface> {
  const surface: Surface = {};
  if (homes.project === homes.global) return surface;
  const { workdir } = homes;
  const rel = (p: string) => path.relative(workdir, p).split(path.sep).join("/");
  for (const { dir, what } of COMMAND_FOLDERS) {
    const folder = path.join(homes.project, ...dir);
    const names = (await readdir(folder).catch(() => [] as string[])).filter(
      (n) => CONFIG_FILE.test(n) && !n.startsWith("."),
    );
    for (const name of names.sort())
      await fileEntries(path.join(folder, name), what, workdir, surface);
  }
  await fileEntries(
    configDir(homes.project, "runner-configs.json"),
    "runner config",
    workdir,
    surface,
  );
  await fileEntries(path.join(workdir, ".mcp.json"), "MCP server", workdir, surface);
  const features = featuresFile(homes.project);
  const featuresDigest = await fileDigest(features);
  if (featuresDigest)
    surface[rel(features)] = {
      label: `plugin settings ${rel(features)}`,
      files: { [rel(features)]: featuresDigest },
    };
  const dirs = (await loadPluginFeatures(homes, {})).features.dirs;
  for (const where of dirs.filter((d) => d.source === "project")) {
    const walked = await findPluginFolders(where.dir);
    for (const dir of [...walked.folders, ...walked.claudeFolders, ...walked.runnerFolders].sort())
      surface[`plugin:${rel(dir)}`] = {
        label: `project plugin ${rel(dir)}`,
        files: await digestsOf(dir, await pluginFiles(dir)),
      };
  }
  return surface;
}

/**
 * What changed since `before` (the surface when the folder was trusted), one line each: new
 * commands and plugins, changed command lines, changed files with what runs them. What was taken
 * away is not listed (it widens nothing).
 */
export function surfaceChanges(before: Surface, now: Surface): string[] {
  const lines: string[] = [];
  for (const [key, entry] of Object.entries(now).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const old = before[key];
    const runs = entry.command ? `: \`${entry.command}\`` : "";
    if (!old) {
      lines.push(`new since you trusted it: ${entry.label}${runs}`);
      continue;
    }
    if (old.command !== entry.command) {
      lines.push(
        `changed since you trusted it: ${entry.label} now runs \`${entry.command ?? ""}\` (was \`${old.command ?? ""}\`)`,
      );
      continue;
    }
    const files = changedFiles(old.files, entry.files);
    if (files.length > 0)
      lines.push(`changed since you trusted it: ${files.join(", ")}, run by ${entry.label}${runs}`);
  }
  return lines;
}
