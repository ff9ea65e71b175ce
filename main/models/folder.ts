/**
 * The models folder: `<global home>/models/`, one `<name>.gguf` per model (a download in
 * progress is `<name>.gguf.partial` and is not a model yet). The name is what `--model` takes
 * with the `local` provider.
 */
import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Homes } from "../config/homes.ts";
import { ModelFileError } from "./errors.ts";
import { readGgufInfo, type GgufInfo } from "./gguf-info.ts";

export interface LocalModel {
  name: string;
  file: string;
  size: number;
  /** null when the file cannot be used; `error` says why and what to do. */
  info: GgufInfo | null;
  error: string | null;
}

export const PARTIAL = ".partial";

export function modelsDir(globalHome: string): string {
  return path.join(globalHome, "models");
}

export function modelFile(globalHome: string, name: string): string {
  return path.join(modelsDir(globalHome), `${name}.gguf`);
}

/** A name a file can carry: letters, digits, . _ - (no path, no leading dot). */
export function isModelName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(name) && !name.endsWith(".gguf");
}

/** `*.gguf` files in the folder and one level down (a model per folder); partials are not models. */
async function ggufFiles(dir: string, depth = 0): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(
    (err: NodeJS.ErrnoException) => {
      if (err.code === "ENOENT" || err.code === "ENOTDIR") return [];
      throw err;
    },
  );
  const found: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith(".")) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory() && depth === 0) found.push(...(await ggufFiles(full, 1)));
    else if (e.isFile() && /\.gguf$/i.test(e.name)) found.push(full);
  }
  return found;
}

export interface ModelFile {
  /** The file name without `.gguf` (what `--model` and providers.yaml name). */
  name: string;
  file: string;
  size: number;
}

/** The model files in a models folder, by name, headers not read. */
export async function modelFilesIn(dir: string): Promise<ModelFile[]> {
  const files = await Promise.all(
    (await ggufFiles(dir)).map(async (file) => ({
      name: path.basename(file).replace(/\.gguf$/i, ""),
      file,
      size: (await stat(file)).size,
    })),
  );
  return files.sort((a, b) => a.name.localeCompare(b.name));
}

/** The file for a model name (case-insensitive, `.gguf` optional) or an absolute path; undefined if absent. */
export async function findModelFile(dir: string, name: string): Promise<string | undefined> {
  if (path.isAbsolute(name)) {
    return (await stat(name).catch(() => undefined))?.isFile() ? name : undefined;
  }
  const want = name.replace(/\.gguf$/i, "").toLowerCase();
  return (await modelFilesIn(dir)).find((m) => m.name.toLowerCase() === want)?.file;
}

/** Every model in a models folder with its header read; bad files are listed with their error. */
export async function localModelsIn(dir: string): Promise<LocalModel[]> {
  const models = await Promise.all(
    (await modelFilesIn(dir)).map(async (model): Promise<LocalModel> => {
      const { file } = model;
      try {
        return { ...model, info: await readGgufInfo(file), error: null };
      } catch (err) {
        if (!(err instanceof ModelFileError)) throw err;
        return { ...model, info: null, error: err.message };
      }
    }),
  );
  return models;
}

/** The models in `<global home>/models/`. */
export function localModels(homes: Pick<Homes, "global">): Promise<LocalModel[]> {
  return localModelsIn(modelsDir(homes.global));
}

/** Deletes a model (and any partial download of it); ModelFileError for an unknown name. */
export async function removeModel(homes: Pick<Homes, "global">, name: string): Promise<string> {
  // A model in a folder of its own is deleted where it is.
  const listed = (await localModels(homes)).find((m) => m.name === name);
  const file = listed?.file ?? modelFile(homes.global, name);
  const exists = isModelName(name) && (await stat(file).catch(() => null));
  const partial = isModelName(name) && (await stat(file + PARTIAL).catch(() => null));
  if (!exists && !partial) {
    const known = (await localModels(homes)).map((m) => m.name);
    throw new ModelFileError(
      `no model named "${name}" in ${modelsDir(homes.global)} — ${known.length ? `downloaded: ${known.join(", ")}` : "no models downloaded"}`,
    );
  }
  await rm(file, { force: true });
  await rm(file + PARTIAL, { force: true });
  return file;
}
