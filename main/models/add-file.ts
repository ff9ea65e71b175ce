/**
 * The app's "Add a model file…": a GGUF file already on this computer joins the models folder.
 * The path comes from a person (typed or pasted under `islet serve`, where the page cannot pick a
 * file), so it is checked on the engine's side before anything is read past the first bytes: an
 * absolute path to a regular, readable file (after symbolic links) that starts with the GGUF
 * signature and whose header parses. Then it is linked into the folder (a second name, no copy),
 * or copied where a link cannot be made (another disk, links not allowed).
 */
import { constants } from "node:fs";
import { copyFile, link, mkdir, open, realpath, rm, stat } from "node:fs/promises";
import path from "node:path";
import type { Homes } from "../config/homes.ts";
import { ModelFileError } from "./errors.ts";
import { localModels, modelFile, modelsDir, type LocalModel } from "./folder.ts";
import { readGgufInfo } from "./gguf-info.ts";
import { nameFromUrl } from "./pull.ts";

const MAGIC = "GGUF";

/** The model name a file gets: its base name without `.gguf`, in the folder's letters. */
export function nameFromPath(file: string): string {
  return nameFromUrl(new URL(`file:///${encodeURIComponent(path.basename(file))}`));
}

async function startsWithMagic(file: string): Promise<boolean> {
  const fh = await open(file, "r");
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    return bytesRead === 4 && head.toString("latin1") === MAGIC;
  } finally {
    await fh.close();
  }
}

function refuse(typed: string, what: string, todo: string): never {
  throw new ModelFileError(`${typed}: ${what} — ${todo}`);
}

/** Checks `typed` and adds it to the models folder; ModelFileError (one line) when it cannot be. */
export async function addModelFile(
  homes: Pick<Homes, "global">,
  typed: string,
): Promise<LocalModel> {
  const given = typed.trim();
  if (given === "" || given.includes("\0"))
    refuse(typed, "not a path", "give the full path of a .gguf file");
  if (!path.isAbsolute(given))
    refuse(
      given,
      "not a full path",
      "give the whole path, from the top folder (like /home/me/model.gguf)",
    );
  let real: string;
  try {
    real = await realpath(given);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") refuse(given, "no such file", "check the path");
    refuse(
      given,
      `cannot be reached (${code ?? (err as Error).message})`,
      "check the path and its permissions",
    );
  }
  const info = await stat(real);
  // Devices, pipes and folders are not model files, whatever they are called.
  if (!info.isFile()) refuse(given, "not a regular file", "give the path of a .gguf file");
  let gguf: boolean;
  try {
    gguf = await startsWithMagic(real);
  } catch (err) {
    refuse(
      given,
      `cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      "check the file's permissions",
    );
  }
  if (!gguf)
    refuse(
      given,
      "not a GGUF model file (it does not start with the GGUF signature)",
      "choose a .gguf file",
    );
  await readGgufInfo(real);

  const name = nameFromPath(real);
  const dest = modelFile(homes.global, name);
  if (path.resolve(real) === path.resolve(dest))
    refuse(given, "already in the models folder", "it is listed under Downloaded");
  if (await stat(dest).catch(() => null))
    refuse(
      given,
      `a model named "${name}" is already in the models folder`,
      "delete that one first, or rename this file",
    );
  await mkdir(modelsDir(homes.global), { recursive: true });
  try {
    await link(real, dest);
  } catch {
    try {
      await copyFile(real, dest, constants.COPYFILE_EXCL);
    } catch (err) {
      await rm(dest, { force: true });
      refuse(
        given,
        `could not be copied into ${modelsDir(homes.global)} (${(err as Error).message})`,
        "free some space or check the folder's permissions",
      );
    }
  }
  const model = (await localModels(homes)).find((m) => m.name === name);
  if (!model) throw new ModelFileError(`${given}: added as ${dest}, but it is not listed`);
  return model;
}
