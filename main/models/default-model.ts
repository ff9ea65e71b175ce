/**
 * Which downloaded model the embedded runtime uses when nobody named one, and the one line that
 * says what to run when there is none (the recommended catalog model for this machine).
 */
import { loadCatalog, recommendedModel } from "./catalog.ts";
import { ModelFileError } from "./errors.ts";
import { localModelsIn } from "./folder.ts";
import { formatBytes, machineMemory } from "./memory.ts";

/** "run `islet models pull qwen3-4b` (Qwen3 4B, 2.5 GB)" for this machine's memory. */
export async function pullAdvice(total: number = machineMemory()): Promise<string> {
  const catalog = await loadCatalog().catch(() => []);
  const r = recommendedModel(catalog, total);
  return r
    ? `run \`islet models pull ${r.name}\` (${r.title}, ${formatBytes(r.size)})`
    : "run `islet models pull URL` with the URL of a .gguf file";
}

/**
 * The model to load from a models folder: `wanted` if it is there, else the first usable one.
 * ModelFileError (one line saying what to run) when there is none.
 */
export async function pickLocalModel(dir: string, wanted: string | undefined): Promise<string> {
  const models = await localModelsIn(dir);
  if (wanted) {
    // As the local provider finds files: `.gguf` optional, any case.
    const want = wanted.replace(/\.gguf$/i, "").toLowerCase();
    const found = models.find((m) => m.name.toLowerCase() === want);
    if (found?.error) throw new ModelFileError(found.error);
    if (found) return wanted;
    const catalog = await loadCatalog().catch(() => []);
    const advice = catalog.some((c) => c.name === wanted)
      ? `run \`islet models pull ${wanted}\``
      : models.length
        ? `downloaded: ${models.map((m) => m.name).join(", ")}`
        : await pullAdvice();
    throw new ModelFileError(`local: no model "${wanted}" in ${dir} — ${advice}`, "get_model");
  }
  const usable = models.find((m) => m.info);
  if (usable) return usable.name;
  const broken = models.find((m) => m.error);
  if (broken?.error) throw new ModelFileError(broken.error);
  throw new ModelFileError(
    `no model provider configured or running and no model downloaded for the embedded runtime — ${await pullAdvice()}, or start Ollama, LM Studio or llama.cpp server`,
    "get_model",
  );
}
