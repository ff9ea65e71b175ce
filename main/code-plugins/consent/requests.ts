/**
 * What a plugin asks for, as a flat list the user reads and the grant store records (SPEC §6):
 * network hosts, paths (read or write), exec, environment variables, WebAssembly, tool argument
 * rewrites, and the shell
 * commands of `bash:` conditions (which run a command on every hook call, so they ask like exec).
 * Then, from what the user granted, the rights the plugin's sandbox actually gets.
 */
import { createHash } from "node:crypto";
import type { PermissionItem } from "../../host/questions.ts";
import type { PluginPermissions } from "../capabilities/permissions.ts";
import type { PluginManifest } from "../loader/manifest.ts";

/** A stable key per request: kind, target and write access (not the reason, which is prose). */
export function itemKey(item: PermissionItem): string {
  return `${item.kind}:${item.target}${item.write ? ":write" : ""}`;
}

/** Every item plugin.yaml asks for, in a stable order. */
export function requestedItems(manifest: PluginManifest): PermissionItem[] {
  const p = manifest.permissions;
  const items: PermissionItem[] = [];
  for (const n of p.network ?? [])
    items.push({ kind: "network", target: n.host, reason: n.reason });
  for (const f of p.paths ?? [])
    items.push({
      kind: "path",
      target: f.path,
      ...(f.write ? { write: true } : {}),
      reason: f.reason,
    });
  if (p.exec) items.push({ kind: "exec", target: "", reason: p.exec.reason });
  const bash = manifest.condition?.all.filter((l) => l.term.kind === "bash") ?? [];
  for (const literal of bash) {
    const command = literal.term.kind === "bash" ? literal.term.command : "";
    items.push({
      kind: "exec",
      target: `bash:${command}`,
      reason: "its condition runs this shell command before every hook call",
    });
  }
  const env = new Map<string, string>();
  for (const e of p.env ?? []) env.set(e.name, e.reason);
  for (const name of manifest.env)
    if (!env.has(name)) env.set(name, "listed in env: (no reason given)");
  for (const [name, reason] of env) items.push({ kind: "env", target: name, reason });
  if (p.wasm) items.push({ kind: "wasm", target: "", reason: p.wasm.reason });
  for (const r of p.rewrite ?? [])
    items.push({ kind: "rewrite", target: r.tool, reason: r.reason });
  return dedupe(items);
}

function dedupe(items: PermissionItem[]): PermissionItem[] {
  const seen = new Map<string, PermissionItem>();
  for (const item of items) if (!seen.has(itemKey(item))) seen.set(itemKey(item), item);
  return [...seen.values()];
}

/** The hash a grant is recorded under: what was asked, not how it was worded. */
export function requestHash(items: readonly PermissionItem[]): string {
  const keys = items.map(itemKey).sort();
  return createHash("sha256").update(JSON.stringify(keys)).digest("hex").slice(0, 32);
}

/** What the plugin's sandbox gets: the granted part of the request, nothing else. */
export interface EffectiveRights {
  permissions: PluginPermissions;
  /** Variable names the plugin may see. `*` means all. */
  env: Set<string>;
  exec: boolean;
  wasm: boolean;
  /** `bash:` condition commands that may run. */
  bashCommands: Set<string>;
}

export function effectiveRights(
  manifest: PluginManifest,
  granted: ReadonlySet<string>,
): EffectiveRights {
  const ok = requestedItems(manifest).filter((i) => granted.has(itemKey(i)));
  const has = (kind: PermissionItem["kind"], target = "", write = false) =>
    ok.some((i) => i.kind === kind && i.target === target && (i.write ?? false) === write);
  const targets = (kind: PermissionItem["kind"]) =>
    ok.filter((i) => i.kind === kind).map((i) => i.target);
  const p = manifest.permissions;
  const network = (p.network ?? []).filter((n) => has("network", n.host));
  const paths = (p.paths ?? []).filter((f) => has("path", f.path, f.write ?? false));
  const exec = p.exec !== undefined && has("exec");
  return {
    permissions: {
      ...(network.length ? { network } : {}),
      ...(paths.length ? { paths } : {}),
      ...(exec ? { exec: p.exec } : {}),
    },
    env: new Set(targets("env")),
    exec,
    wasm: has("wasm"),
    bashCommands: new Set(
      targets("exec")
        .filter((t) => t.startsWith("bash:"))
        .map((t) => t.slice("bash:".length)),
    ),
  };
}
