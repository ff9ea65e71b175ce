/**
 * Where the `local` provider's models are: GGUF files under `<global home>/models/`. The name →
 * file lookup and the header reading live here only, so that they can follow the model manager
 * (main/models/: localModels(), readGgufInfo()) without touching the provider.
 */
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { readGgufInfo } from "../../models/index.ts";

export interface LocalModelFile {
  /** The file name without `.gguf` (what `--model` and providers.yaml name). */
  name: string;
  file: string;
  size: number;
}

/** What the runtime and the context fit need from a GGUF header. */
export interface ModelHeader {
  architecture: string;
  trainContextLength: number;
  layers: number;
  kvHeads: number;
  headDim: number;
  parameterCount: number;
  fileBytes: number;
  /** The chat template renders tools (the model's own function calling). */
  templateTools: boolean;
  /** The template or vocabulary knows `<think>`. */
  thinking: boolean;
}

export function modelsDir(globalHome: string): string {
  return path.join(globalHome, "models");
}

/** `*.gguf` directly in the folder or one level down (a model per folder); partial downloads skipped. */
export async function listModelFiles(dir: string): Promise<LocalModelFile[]> {
  const out: LocalModelFile[] = [];
  const visit = async (folder: string, depth: number): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith(".")) continue;
      const full = path.join(folder, e.name);
      if (e.isDirectory() && depth === 0) await visit(full, 1);
      else if (e.isFile() && /\.gguf$/i.test(e.name)) {
        const size = (await stat(full).catch(() => undefined))?.size ?? 0;
        out.push({ name: e.name.replace(/\.gguf$/i, ""), file: full, size });
      }
    }
  };
  await visit(dir, 0);
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The file for a model name (case-insensitive, `.gguf` optional) or an absolute path; undefined if absent. */
export async function findModelFile(dir: string, name: string): Promise<string | undefined> {
  if (path.isAbsolute(name)) {
    return (await stat(name).catch(() => undefined))?.isFile() ? name : undefined;
  }
  const want = name.replace(/\.gguf$/i, "").toLowerCase();
  const models = await listModelFiles(dir);
  return models.find((m) => m.name.toLowerCase() === want)?.file;
}

function num(v: unknown): number {
  return typeof v === "number" ? v : typeof v === "bigint" ? Number(v) : 0;
}

/**
 * Reads a GGUF header: checked first by the model manager (a truncated, non-GGUF or unsupported
 * file is its one-line ModelFileError), then node-llama-cpp's reader for the template details.
 */
export async function readModelHeader(file: string): Promise<ModelHeader> {
  await readGgufInfo(file);
  const { readGgufFileInfo } = await import("node-llama-cpp");
  const info = await readGgufFileInfo(file, { logWarnings: false });
  const arch = (info.architectureMetadata ?? {}) as Record<string, unknown>;
  const attention = (arch.attention ?? {}) as Record<string, unknown>;
  const heads = num(attention.head_count) || 1;
  const width = num(arch.embedding_length);
  let parameterCount = 0;
  for (const t of info.tensorInfo ?? [])
    parameterCount += t.dimensions.reduce<number>((a, d) => a * num(d), 1);
  const template = String(info.metadata.tokenizer?.chat_template ?? "");
  const tokens = info.metadata.tokenizer?.ggml?.tokens ?? [];
  return {
    architecture: String(info.metadata.general?.architecture ?? ""),
    trainContextLength: num(arch.context_length),
    layers: num(arch.block_count),
    kvHeads: num(attention.head_count_kv) || heads,
    headDim: num(attention.key_length) || (width ? width / heads : 0),
    parameterCount,
    fileBytes: (await stat(file)).size,
    templateTools: /\btools\b/.test(template),
    thinking: template.includes("<think>") || tokens.includes("<think>"),
  };
}
