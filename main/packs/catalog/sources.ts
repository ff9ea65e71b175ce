/**
 * Where catalogs come from: the default one in resources/, and the paths and URLs the user added
 * in settings (`catalogs:` in the global home's settings.json, read by the app and the CLI).
 */
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type CatalogKind = "default" | "file" | "url";

/** resources/catalog.yaml: beside the packaged app's resources, or up from this file. */
export function defaultCatalogFile(): string {
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  const candidates = [
    ...(packaged ? [path.join(packaged, "resources", "catalog.yaml")] : []),
    path.resolve(import.meta.dirname, "../../../resources/catalog.yaml"),
    path.resolve(import.meta.dirname, "../../resources/catalog.yaml"),
  ];
  return candidates.find((file) => existsSync(file)) ?? candidates[1];
}

export function catalogKind(source: string): Exclude<CatalogKind, "default"> {
  return /^https?:\/\//i.test(source) ? "url" : "file";
}

/**
 * A catalog as typed into settings, checked and tidied (a `file://` URL becomes its path), or a
 * one-line error saying what is accepted.
 */
export function checkCatalogSource(
  typed: string,
): { ok: true; source: string } | { ok: false; error: string } {
  const source = typed.trim();
  if (source === "")
    return { ok: false, error: "catalogs: empty; give a file path or an http(s) URL" };
  if (/[\n\r\0]/.test(source)) return { ok: false, error: "catalogs: a path or URL is one line" };
  if (/^file:\/\//i.test(source)) {
    try {
      return { ok: true, source: fileURLToPath(source) };
    } catch {
      return {
        ok: false,
        error: `catalogs: ${JSON.stringify(source)} is not a usable file:// URL`,
      };
    }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    if (catalogKind(source) !== "url" || !URL.canParse(source))
      return {
        ok: false,
        error: `catalogs: ${JSON.stringify(source)}: expected a file path or an http(s) URL`,
      };
    return { ok: true, source };
  }
  return { ok: true, source };
}

/** A catalog path as the user gave it: `~` is the home folder, a relative path is under the global home. */
export function resolveCatalogPath(source: string, globalHome: string): string {
  if (source === "~") return homedir();
  if (source.startsWith("~/")) return path.join(homedir(), source.slice(2));
  return path.resolve(globalHome, source);
}
