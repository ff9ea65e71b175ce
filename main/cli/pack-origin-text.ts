/** Where installed packs came from, as `islet plugins list` and `show` print it. */
import path from "node:path";
import type { InstalledPack } from "../packs/index.ts";

const day = (iso: string) => iso.slice(0, 10);

/** The pack a plugin folder belongs to. */
export function packOf(packs: InstalledPack[], pluginDir: string): InstalledPack | undefined {
  return packs.find((p) => pluginDir === p.dir || pluginDir.startsWith(`${p.dir}${path.sep}`));
}

function originText(p: InstalledPack): string {
  const o = p.origin;
  if (!o) return "copied from a folder or made by hand (no update source)";
  const at = [o.ref && `ref ${o.ref}`, o.subpath && `subpath ${o.subpath}`]
    .filter(Boolean)
    .join(", ");
  return `${o.url}${at ? ` (${at})` : ""} at ${o.commit.slice(0, 12)}, installed ${day(o.installedAt)}${o.updatedAt ? `, updated ${day(o.updatedAt)}` : ""}`;
}

/** The "Packs:" section of `plugins list`. */
export function packsText(packs: InstalledPack[]): string {
  if (packs.length === 0) return "";
  const width = Math.max(...packs.map((p) => p.name.length));
  const rows = packs.map(
    (p) =>
      `  ${p.name.padEnd(width)}  ${p.scope.padEnd(7)}  ${originText(p)} — ${p.plugins.join(", ") || "no plugins"}`,
  );
  return `Packs:\n${rows.join("\n")}\n`;
}

/** The lines `plugins show` adds for a plugin's pack. */
export function packOriginLines(pack: InstalledPack | undefined): string[] {
  if (!pack) return [];
  const o = pack.origin;
  const lines = [
    `Pack:        ${pack.name}${pack.plugins.length > 1 ? ` (with ${pack.plugins.length - 1} more)` : ""}`,
  ];
  if (!o) return [...lines, "Origin:      copied from a folder or made by hand (no update source)"];
  return [
    ...lines,
    `Origin:      ${o.url}${o.ref ? ` (ref ${o.ref})` : ""}${o.subpath ? ` (subpath ${o.subpath})` : ""}`,
    `Commit:      ${o.commit}`,
    `Installed:   ${o.installedAt}${o.updatedAt ? ` (updated ${o.updatedAt})` : ""}`,
  ];
}
