/**
 * llama.cpp's binary without node-llama-cpp's compatibility test. getLlama() tests a prebuilt
 * binary in a process of its own before loading it (a Node start, its imports, the library
 * loaded twice): needed the first time, since an incompatible binary would crash the loader.
 * Once a runtime process of this engine has loaded one, the engine passes its path to the
 * runtimes it starts later (after an idle unload, a crash, other options), which load it directly
 * with the same Llama._create that getLlama() ends with (node-llama-cpp 3.21, pinned).
 *
 * Only a prebuilt binary whose libraries all sit in its own folder is passed on (not a CUDA
 * build with its libraries elsewhere, not a local build): anything else goes through getLlama().
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Llama, LlamaLogLevel } from "node-llama-cpp";
import { llamaExport } from "./llama-lib.ts";

export interface ProvenBinary {
  /** llama-addon.node */
  addon: string;
  /** Its build metadata (`_nlcBuildMetadata.json` beside it). */
  metadata: string;
}

const METADATA = "_nlcBuildMetadata.json";

/** The binary a loaded Llama came from, when another runtime may load it directly. */
export function provenBinary(llama: Llama): ProvenBinary | undefined {
  if (llama.buildType !== "prebuilt") return undefined;
  const report = process.report?.getReport() as { sharedObjects?: string[] } | undefined;
  const objects = report?.sharedObjects ?? [];
  const addon = objects.find((o) => /[\\/]llama-addon\.node$/.test(o));
  if (!addon) return undefined;
  const folder = dirname(addon);
  const libraries = objects.filter((o) => /[\\/](lib)?(ggml|llama)[^\\/]*$/.test(o));
  if (libraries.some((l) => dirname(l) !== folder)) return undefined;
  const metadata = join(folder, METADATA);
  return existsSync(metadata) ? { addon, metadata } : undefined;
}

interface CreateOptions {
  bindings: unknown;
  bindingPath: string;
  buildType: "prebuilt";
  buildMetadata: unknown;
  logLevel: LlamaLogLevel;
  logger: (level: LlamaLogLevel, message: string) => void;
  maxThreads?: number;
  vramPadding: (total: number) => number;
  ramPadding: (total: number) => number;
  skipLlamaInit: boolean;
  debug: boolean;
  numa: false;
  tempDir: false;
}

/** Loads a proven binary as getLlama() would after its test passed (its default paddings). */
export async function loadProvenBinary(
  binary: ProvenBinary,
  opts: Pick<CreateOptions, "logLevel" | "logger" | "maxThreads">,
): Promise<Llama> {
  const LlamaClass = (await llamaExport("Llama")) as unknown as {
    _create(o: CreateOptions): Promise<Llama>;
  };
  const bindings: unknown = createRequire(import.meta.url)(binary.addon);
  const buildMetadata: unknown = JSON.parse(readFileSync(binary.metadata, "utf8"));
  return LlamaClass._create({
    bindings,
    bindingPath: binary.addon,
    buildType: "prebuilt",
    buildMetadata,
    ...opts,
    vramPadding: (total) => Math.floor(Math.min(total * 0.08, 1.6 * 1024 ** 3)),
    ramPadding: (total) =>
      Math.floor(Math.min(total * 0.25, (process.platform === "linux" ? 1 : 6) * 1024 ** 3)),
    skipLlamaInit: false,
    debug: false,
    numa: false,
    tempDir: false,
  });
}
