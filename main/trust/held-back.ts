/**
 * What a project's own `.islet/` would widen if the folder were trusted (SPEC §6): unsafe mode,
 * the permission requests of its plugins, their tool overrides, its model providers (which could send the user's API
 * keys elsewhere), its shell hooks, MCP servers and CLI-tool runners (runner plugins and runner
 * configs, main/extensions/runners/), its Claude Code plugins' hooks and MCP servers (by name), and its
 * commands, skills, agents and output styles. One line each, for the
 * trust question and the notice of what was held back.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import { configDir, type Homes } from "../config/homes.ts";
import { requestedItems } from "../code-plugins/consent/requests.ts";
import {
  featuresFile,
  findPluginFolders,
  loadPluginFeatures,
  loadPlugins,
} from "../code-plugins/loader/index.ts";
import { PROJECT_MCP_FILE } from "../config/workspace-files.ts";
import { claudePluginHeldBack } from "./claude-held-back.ts";

/**
 * Folders of the project home whose contents run commands, reach servers or widen a turn: slash
 * commands run their !`cmd` lines and set `allowed-tools`, skills and agents steer the model.
 */
const RUNNING_CONFIG: readonly { dir: string[]; what: string }[] = [
  { dir: ["config", "hooks"], what: "shell hooks" },
  { dir: ["config", "mcp"], what: "MCP servers" },
  { dir: ["config", "commands"], what: "commands" },
  { dir: ["skills"], what: "skills" },
  { dir: ["config", "agents"], what: "agents" },
  // A style without keep-coding-instructions replaces the agent's whole system prompt.
  { dir: ["config", "output-styles"], what: "output styles" },
];

export async function projectWidening(homes: Homes): Promise<string[]> {
  if (homes.project === homes.global) return [];
  const rel = (p: string) => path.relative(homes.workdir, p);
  const lines: string[] = [];
  const features = await readYamlMap(featuresFile(homes.project));
  const plugins = features?.plugins;
  if (isRecord(plugins) && plugins.unsafe === true)
    lines.push(
      `unsafe mode (plugins may run programs), set in ${rel(featuresFile(homes.project))}`,
    );
  const providers = configDir(homes.project, "providers.yaml");
  if ((await readYamlMap(providers)) !== null)
    lines.push(`model providers from ${rel(providers)} (they could send your API keys elsewhere)`);
  const load = await loadPlugins(homes, {});
  const asking = load.plugins
    .filter((p) => p.source === "project" && requestedItems(p.manifest).length > 0)
    .map((p) => p.name);
  if (asking.length > 0) lines.push(`permissions asked by project plugins ${asking.join(", ")}`);
  // An override answers the model's Read or Bash with the repository's own code.
  const overriding = load.plugins
    .filter((p) => p.source === "project" && p.manifest.override)
    .map((p) => p.name);
  if (overriding.length > 0)
    lines.push(`tool overrides (override: true) of project plugins ${overriding.join(", ")}`);
  for (const { dir, what } of RUNNING_CONFIG) {
    const full = path.join(homes.project, ...dir);
    const entries = await readdir(full).catch(() => []);
    if (entries.some((e) => !e.startsWith("."))) lines.push(`${what} from ${rel(full)}/`);
  }
  const runnerConfigs = configDir(homes.project, "runner-configs.json");
  if (await exists(runnerConfigs)) lines.push(`CLI-tool runner configs from ${rel(runnerConfigs)}`);
  const pluginDirs = (await loadPluginFeatures(homes, {})).features.dirs;
  for (const where of pluginDirs.filter((d) => d.source === "project")) {
    const walked = await findPluginFolders(where.dir);
    const runners = walked.runnerFolders;
    if (runners.length > 0)
      lines.push(
        `CLI-tool runner plugins ${runners.map((d) => path.basename(d)).join(", ")} from ${rel(where.dir)}/`,
      );
    for (const dir of [...walked.claudeFolders].sort()) {
      const line = await claudePluginHeldBack(dir, `${rel(dir)}/`);
      if (line) lines.push(line);
    }
  }
  // Claude Code's project MCP servers: each one starts a program or reaches a server.
  const mcpJson = path.join(homes.workdir, PROJECT_MCP_FILE);
  if (
    await readFile(mcpJson).then(
      () => true,
      () => false,
    )
  )
    lines.push(`MCP servers from ${rel(mcpJson)}`);
  return lines;
}

async function exists(file: string): Promise<boolean> {
  return readFile(file).then(
    () => true,
    () => false,
  );
}

async function readYamlMap(file: string): Promise<Record<string, unknown> | null> {
  try {
    const data: unknown = parseYaml(await readFile(file, "utf8"));
    return isRecord(data) ? data : {};
  } catch (err) {
    // A file that exists but does not parse still counts: it is held back either way.
    return (err as NodeJS.ErrnoException).code === "ENOENT" ? null : {};
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}
