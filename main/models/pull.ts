/**
 * `islet models pull NAME|URL` and the app's Download: a catalog name or a URL to a .gguf file
 * becomes a download into the models folder, and the finished file's header is read before it
 * counts as a model (a URL has no checksum to go by: a page that is not GGUF is caught here).
 */
import { stat } from "node:fs/promises";
import type { Homes } from "../config/homes.ts";
import { loadCatalog, type CatalogModel } from "./catalog.ts";
import { download, type DownloadOptions } from "./download/download.ts";
import type { DownloadProgress } from "./download/progress.ts";
import { ModelFileError } from "./errors.ts";
import { isModelName, localModels, modelFile, removeModel, type LocalModel } from "./folder.ts";
import { readGgufInfo } from "./gguf-info.ts";

export interface PullPlan {
  name: string;
  url: string;
  dest: string;
  sha256?: string;
  size?: number;
  /** The catalog entry, when it came from the catalog. */
  catalog?: CatalogModel;
}

/** A model name from a URL's last path segment: "Qwen3-4B-Q4_K_M.gguf?x=1" → "Qwen3-4B-Q4_K_M". */
export function nameFromUrl(url: URL): string {
  const last = decodeURIComponent(url.pathname.split("/").filter(Boolean).at(-1) ?? "");
  const base = last
    .replace(/\.gguf$/i, "")
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[.-]+/, "");
  return base.slice(0, 128) || "model";
}

export async function planPull(
  homes: Pick<Homes, "global">,
  what: string,
  catalog?: CatalogModel[],
): Promise<PullPlan> {
  // Only the web: a file:, data: or javascript: "URL" would read this computer or run code.
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(what)?.[1];
  if (scheme && !/^https?$/i.test(scheme))
    throw new ModelFileError(
      `${what}: only http and https URLs can be downloaded (not ${scheme}:)`,
    );
  const models = catalog ?? (await loadCatalog());
  if (/^https?:\/\//i.test(what)) {
    if (!URL.canParse(what)) throw new ModelFileError(`${what}: not a valid URL`);
    const known = models.find((m) => m.url === what);
    if (known) return planPull(homes, known.name, models);
    const name = nameFromUrl(new URL(what));
    return { name, url: what, dest: modelFile(homes.global, name) };
  }
  const entry = models.find((m) => m.name === what);
  if (!entry || !isModelName(what)) {
    throw new ModelFileError(
      `no model named "${what}" in the catalog — pull one of ${models.map((m) => m.name).join(", ")}, or give a URL to a .gguf file`,
    );
  }
  return {
    name: entry.name,
    url: entry.url,
    dest: modelFile(homes.global, entry.name),
    sha256: entry.sha256,
    size: entry.size,
    catalog: entry,
  };
}

export async function isDownloaded(plan: PullPlan): Promise<boolean> {
  return (await stat(plan.dest).catch(() => null))?.isFile() === true;
}

export interface PullOptions {
  signal?: AbortSignal;
  onProgress?(p: DownloadProgress): void;
  freeBytes?: DownloadOptions["freeBytes"];
  progressIntervalMs?: number;
}

/** Downloads (or resumes) the plan's file, checks its header, and returns it as a model. */
export async function pullModel(
  homes: Pick<Homes, "global">,
  plan: PullPlan,
  opts: PullOptions = {},
): Promise<LocalModel> {
  await download({
    url: plan.url,
    dest: plan.dest,
    label: plan.name,
    sha256: plan.sha256,
    size: plan.size,
    ...opts,
  });
  try {
    await readGgufInfo(plan.dest);
  } catch (err) {
    // Not a usable model (a login page saved as .gguf, an unsupported file): do not keep it.
    await removeModel(homes, plan.name).catch(() => undefined);
    throw err;
  }
  const model = (await localModels(homes)).find((m) => m.name === plan.name);
  if (!model) throw new ModelFileError(`${plan.name}: downloaded, but ${plan.dest} is gone`);
  return model;
}
