/**
 * The embedded runtime's model manager: the models folder, GGUF headers, the memory fit, the
 * catalog of recommended models and downloads. Import from here outside main/models/.
 */
export { ModelFileError } from "./errors.ts";
export { readGgufInfo, type GgufInfo } from "./gguf-info.ts";
export {
  findModelFile,
  isModelName,
  localModels,
  localModelsIn,
  modelFile,
  modelFilesIn,
  modelsDir,
  removeModel,
  type LocalModel,
  type ModelFile,
} from "./folder.ts";
export {
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_LOCAL_CONTEXT,
  describeFit,
  fitContextSize,
  formatBytes,
  kvBytesPerToken,
  machineMemory,
  memoryFit,
  memoryNeeded,
  memoryShortfall,
  type MemoryFit,
} from "./memory.ts";
export {
  defaultCatalogFile,
  fitOf,
  loadCatalog,
  parseCatalog,
  recommendedModel,
  type CatalogModel,
} from "./catalog.ts";
export { download, DownloadError, type DownloadFailure } from "./download/download.ts";
export { formatDuration, type DownloadProgress } from "./download/progress.ts";
export type { FreeBytes } from "./download/disk.ts";
export { isDownloaded, nameFromUrl, planPull, pullModel, type PullPlan } from "./pull.ts";
export { pickLocalModel, pullAdvice } from "./default-model.ts";
export { Downloads, type DownloadState } from "./downloads.ts";
export { addModelFile, nameFromPath } from "./add-file.ts";
