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

/** Every model in the folder with its header read; bad files are listed with their error. */
export async function localModels(homes: Pick<Homes, "global">): Promise<LocalModel[]> {
  const dir = modelsDir(homes.global);
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [];
    throw err;
  });
  const models = await Promise.all(
    names
      .filter((n) => n.endsWith(".gguf") && !n.startsWith("."))
      .map(async (n): Promise<LocalModel | null> => {
        const file = path.join(dir, n);
        const st = await stat(file).catch(() => null);
        if (!st?.isFile()) return null;
        const model = { name: n.slice(0, -".gguf".length), file, size: st.size };
        try {
          return { ...model, info: await readGgufInfo(file), error: null };
        } catch (err) {
          if (!(err instanceof ModelFileError)) throw err;
          return { ...model, info: null, error: err.message };
        }
      }),
  );
  return models
    .filter((m): m is LocalModel => m !== null)
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Deletes a model (and any partial download of it); ModelFileError for an unknown name. */
export async function removeModel(homes: Pick<Homes, "global">, name: string): Promise<string> {
  const file = modelFile(homes.global, name);
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
