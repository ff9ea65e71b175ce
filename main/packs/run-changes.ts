/**
 * What an update changes in what already-approved commands run. Consent to a hook, MCP server or
 * runner covers the files it runs (main/trust/run-files.ts has the rule), not only its command
 * line: an update that leaves `sh ${CLAUDE_PLUGIN_ROOT}/hooks/hook.sh` as it was but changes
 * hooks/hook.sh is asked about like a new command. The installed commit is what was approved
 * (an update refuses local edits unless forced), so git's list of changed files tells what
 * changed since the approval.
 */
import { lstat } from "node:fs/promises";
import path from "node:path";
import type { PermissionItem } from "../host/questions.ts";
import { itemKey } from "../code-plugins/consent/requests.ts";
import { isScriptFile, namedFiles } from "../trust/run-files.ts";
import type { StagedPlugin } from "./validate.ts";

const ROOT = "${CLAUDE_PLUGIN_ROOT}";

/** An exec item's command line, or undefined for exec without one (a code plugin's right). */
function commandOf(item: PermissionItem): string | undefined {
  if (item.kind !== "exec" || item.target === "") return undefined;
  return item.target.replace(/^bash:/, "");
}

/** A changed path inside the plugin's folder that a command could run (named, or a script). */
async function couldRun(dir: string, rel: string): Promise<boolean> {
  const info = await lstat(path.join(dir, ...rel.split("/"))).catch(() => null);
  return isScriptFile(rel, info?.mode ?? 0);
}

/**
 * Per plugin, the commands whose files `changedPaths` (relative to the pack's root) touch, each
 * with a reason naming the file; and a changed script no command names, as its own item.
 */
export async function changedRuns(
  plugins: readonly StagedPlugin[],
  changedPaths: readonly string[],
): Promise<Map<string, PermissionItem[]>> {
  const out = new Map<string, PermissionItem[]>();
  for (const p of plugins) {
    const commands = p.items.filter((i) => commandOf(i) !== undefined);
    if (commands.length === 0) continue;
    const prefix = p.rel ? `${p.rel}/` : "";
    const changed = new Set(
      changedPaths.filter((f) => f.startsWith(prefix)).map((f) => f.slice(prefix.length)),
    );
    if (changed.size === 0) continue;
    const items: PermissionItem[] = [];
    const named = new Set<string>();
    for (const item of commands) {
      const command = commandOf(item)!;
      // A `bin/` item puts the folder's programs on PATH: every file in it is what it runs.
      const files = command.endsWith("/bin/")
        ? [...changed].filter((f) => f.startsWith("bin/"))
        : (await namedFiles(command, p.dir)).filter((f) => changed.has(f));
      for (const f of files) named.add(f);
      // A deleted file cannot be named by what exists: the command's own words still name it.
      for (const f of changed)
        if (!files.includes(f) && command.includes(f)) {
          files.push(f);
          named.add(f);
        }
      if (files.length > 0)
        items.push({
          ...item,
          reason: `${files.join(", ")}, which it runs, changed in this update (${item.reason})`,
        });
    }
    for (const f of [...changed].sort())
      if (!named.has(f) && (await couldRun(p.dir, f)))
        items.push({
          kind: "exec",
          target: `${ROOT}/${f}`,
          reason: "a script in the plugin's folder changed in this update: its commands may run it",
        });
    if (items.length > 0) out.set(p.name, items);
  }
  return out;
}

/** `fresh` (what was not granted) with the changed commands added, each plugin's once. */
export function withChangedRuns(
  fresh: Map<string, PermissionItem[]>,
  changed: Map<string, PermissionItem[]>,
): Map<string, PermissionItem[]> {
  const out = new Map(fresh);
  for (const [name, items] of changed) {
    const asked = out.get(name) ?? [];
    const keys = new Set(asked.map(itemKey));
    out.set(name, [...asked, ...items.filter((i) => !keys.has(itemKey(i)))]);
  }
  return out;
}
