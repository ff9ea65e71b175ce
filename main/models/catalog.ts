/**
 * The catalog of recommended models (resources/models-catalog.yaml): name, size, quantization,
 * memory needed, licence, URL and sha256 of each. Validated on load: a bad entry is one line
 * naming the file, the entry and the field. Which one to recommend depends on this machine's
 * memory: the largest that fits comfortably.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { LineCounter, parseDocument } from "yaml";
import { z } from "zod";
import { ModelFileError } from "./errors.ts";
import { isModelName } from "./folder.ts";
import { machineMemory, memoryFit, type MemoryFit } from "./memory.ts";

const entrySchema = z.strictObject({
  name: z.string().refine(isModelName, "expected letters, digits, '.', '-' or '_' (a file name)"),
  title: z.string().min(1),
  description: z.string().min(1),
  url: z.string().refine(isCatalogUrl, "expected an https URL"),
  size: z.number().int().positive("expected the file's size in bytes"),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, "expected 64 lowercase hex digits"),
  quantization: z.string().min(1),
  parameters: z.string().regex(/^\d+(\.\d+)?[MB]$/, 'expected a count like "4.0B" or "500M"'),
  memory_gb: z.number().positive("expected gigabytes, e.g. 4.2"),
  license: z.string().min(1),
});

/** https, or http to this machine (a local mirror, tests). */
function isCatalogUrl(s: string): boolean {
  if (!URL.canParse(s)) return false;
  const u = new URL(s);
  if (u.protocol === "https:") return true;
  return u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname);
}

const fileSchema = z.strictObject({ models: z.array(z.unknown()).min(1, "expected a list") });

export interface CatalogModel {
  name: string;
  title: string;
  description: string;
  url: string;
  size: number;
  sha256: string;
  quantization: string;
  parameters: string;
  /** Bytes of memory the model needs loaded (file + KV cache at 8,192 tokens + runtime). */
  memoryNeeded: number;
  license: string;
}

/**
 * ISLET_MODELS_CATALOG (another catalog: a local mirror, tests), else
 * resources/models-catalog.yaml beside the packaged app's resources, or up from this file.
 */
export function defaultCatalogFile(): string {
  const custom = process.env.ISLET_MODELS_CATALOG;
  if (custom) return path.resolve(custom);
  const packaged = (process as { resourcesPath?: string }).resourcesPath;
  if (packaged) return path.join(packaged, "resources", "models-catalog.yaml");
  return path.resolve(import.meta.dirname, "../../resources/models-catalog.yaml");
}

function issue(e: z.core.$ZodIssue): string {
  const field = e.path.map(String).join(".");
  if (e.code === "unrecognized_keys") return `${e.keys[0]}: unknown field`;
  const input = (e as { input?: unknown }).input;
  if (e.code === "invalid_type" && input === undefined) return `${field}: required`;
  return `${field}: ${e.message}`;
}

export function parseCatalog(text: string, file: string): CatalogModel[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: false, lineCounter: lines });
  const yamlError = doc.errors[0];
  if (yamlError) {
    const pos = lines.linePos(yamlError.pos[0]);
    throw new ModelFileError(
      `${file}:${pos.line}:${pos.col}: invalid YAML: ${yamlError.message.split("\n")[0]}`,
    );
  }
  const top = fileSchema.safeParse(doc.toJS() ?? {}, { reportInput: true });
  if (!top.success) throw new ModelFileError(`${file}: ${issue(top.error.issues[0])}`);
  const seen = new Set<string>();
  return top.data.models.map((raw, i) => {
    const label = `models[${i}]${typeof (raw as { name?: unknown })?.name === "string" ? ` (${(raw as { name: string }).name})` : ""}`;
    const parsed = entrySchema.safeParse(raw, { reportInput: true });
    if (!parsed.success)
      throw new ModelFileError(`${file}: ${label}.${issue(parsed.error.issues[0])}`);
    const e = parsed.data;
    if (seen.has(e.name))
      throw new ModelFileError(`${file}: ${label}.name: "${e.name}" appears twice`);
    seen.add(e.name);
    return {
      name: e.name,
      title: e.title,
      description: e.description,
      url: e.url,
      size: e.size,
      sha256: e.sha256,
      quantization: e.quantization,
      parameters: e.parameters,
      memoryNeeded: Math.round(e.memory_gb * 1e9),
      license: e.license,
    };
  });
}

const cache = new Map<string, Promise<CatalogModel[]>>();

/** The catalog (read once per file); ModelFileError when it is missing or wrong. */
export function loadCatalog(file: string = defaultCatalogFile()): Promise<CatalogModel[]> {
  let hit = cache.get(file);
  if (!hit) {
    hit = readFile(file, "utf8").then(
      (text) => parseCatalog(text, file),
      (err: Error) => {
        throw new ModelFileError(`${file}: cannot read the model catalog (${err.message})`);
      },
    );
    hit.catch(() => cache.delete(file));
    cache.set(file, hit);
  }
  return hit;
}

export function fitOf(model: CatalogModel, total: number = machineMemory()): MemoryFit {
  return memoryFit(model.memoryNeeded, total);
}

/** The largest model that fits comfortably; on a small machine, the smallest one. */
export function recommendedModel(
  catalog: CatalogModel[],
  total: number = machineMemory(),
): CatalogModel | undefined {
  const bySize = [...catalog].sort((a, b) => b.memoryNeeded - a.memoryNeeded);
  return bySize.find((m) => fitOf(m, total) === "fits") ?? bySize.at(-1);
}
