/**
 * New plugins from the templates in resources/plugin-templates/ (a beforeChat injector, a tool, a
 * command, an afterToolExecution filter): each folder is a working plugin whose `{{name}}` and
 * `{{toolName}}` placeholders become the new plugin's names.
 */
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseManifest } from "../code-plugins/loader/manifest.ts";
import { MANIFEST_NAME } from "../code-plugins/loader/walk.ts";

export interface PluginTemplate {
  id: string;
  title: string;
  description: string;
}

/** Display order and titles; a folder missing here is listed after them under its own name. */
const TITLES: Record<string, string> = {
  "before-chat-injector": "beforeChat injector",
  tool: "Tool",
  command: "Slash command",
  "after-tool-filter": "afterToolExecution filter",
};

export const PLUGIN_NAME = /^[a-z0-9][a-z0-9-]{0,47}$/;

/** resources/plugin-templates: next to the packaged app's resources, or up from this file. */
export function defaultTemplatesDir(): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [
    ...(packaged ? [path.join(packaged, "resources", "plugin-templates")] : []),
    // main/editor/ in the source tree and out/main/ in the bundle are both two folders down.
    path.resolve(import.meta.dirname, "../../resources/plugin-templates"),
  ];
  return candidates.find((dir) => existsSync(dir)) ?? candidates[candidates.length - 1];
}

export async function listTemplates(dir: string): Promise<PluginTemplate[]> {
  const ids = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name);
  const order = Object.keys(TITLES);
  ids.sort((a, b) => rank(order, a) - rank(order, b) || a.localeCompare(b));
  return Promise.all(
    ids.map(async (id) => {
      const file = path.join(dir, id, MANIFEST_NAME);
      const read = parseManifest(await readFile(file, "utf8"), file);
      const description = read.ok ? read.manifest.description.replace(/\{\{\w+\}\}/g, "…") : "";
      return { id, title: TITLES[id] ?? id, description };
    }),
  );
}

const rank = (order: string[], id: string) => {
  const i = order.indexOf(id);
  return i < 0 ? order.length : i;
};

/** "word-counter" → "WordCounter": a tool name models read as one word. */
export function toolNameFor(name: string): string {
  return name
    .split("-")
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("");
}

/**
 * Writes template `id` as plugin `name` into `pluginsDir/name/`; refuses a name that is not
 * lower-case letters, digits and dashes, an unknown template, and a folder that already exists.
 * Returns the new plugin's folder.
 */
export async function createFromTemplate(opts: {
  templatesDir: string;
  template: string;
  name: string;
  pluginsDir: string;
}): Promise<string> {
  const { templatesDir, template, name, pluginsDir } = opts;
  if (!PLUGIN_NAME.test(name))
    throw new Error(
      `plugin name "${name.slice(0, 60)}": use lower-case letters, digits and dashes (e.g. my-plugin)`,
    );
  const known = (await listTemplates(templatesDir)).map((t) => t.id);
  if (!known.includes(template))
    throw new Error(
      `no plugin template "${template.slice(0, 60)}"; templates: ${known.join(", ")}`,
    );
  const target = path.join(pluginsDir, name);
  if (await stat(target).catch(() => null))
    throw new Error(`${target} already exists; choose another name`);
  const source = path.join(templatesDir, template);
  const files = (await readdir(source, { recursive: true, withFileTypes: true })).filter((e) =>
    e.isFile(),
  );
  // Written into a fresh folder only once every file is read: a half-made plugin never loads.
  const contents = await Promise.all(
    files.map(async (e) => {
      const full = path.join(e.parentPath, e.name);
      const text = (await readFile(full, "utf8"))
        .replaceAll("{{toolName}}", toolNameFor(name))
        .replaceAll("{{name}}", name);
      return { rel: path.relative(source, full), text };
    }),
  );
  await mkdir(target, { recursive: true });
  // plugin.yaml last: the watcher sees a complete plugin when the manifest appears.
  contents.sort((a, b) => Number(a.rel === MANIFEST_NAME) - Number(b.rel === MANIFEST_NAME));
  for (const { rel, text } of contents) {
    await mkdir(path.dirname(path.join(target, rel)), { recursive: true });
    await writeFile(path.join(target, rel), text, { flag: "wx" });
  }
  return target;
}
