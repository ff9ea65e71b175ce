/**
 * `models/local`, `models/download`, `models/cancelDownload`, `models/delete`: the embedded
 * runtime's models for the app's Models screen and the chat's first-run offer. Downloads run in
 * the engine (a window may close meanwhile) and report to every window as `models/download`.
 */
import type { Homes } from "../../config/homes.ts";
import { ProblemError } from "../../host/problem.ts";
import {
  addModelFile,
  Downloads,
  loadCatalog,
  machineMemory,
  localModels,
  memoryFit,
  memoryNeeded,
  modelsDir,
  recommendedModel,
  removeModel,
  type CatalogModel,
} from "../../models/index.ts";
import { EVERYONE, type BridgeService, type CallHandlers } from "../service.ts";
import { modelSource, type ModelsPort } from "./models.ts";

type LocalHandlers = Pick<
  CallHandlers,
  | "models/local"
  | "models/download"
  | "models/cancelDownload"
  | "models/delete"
  | "models/addFile"
  | "models/pickFile"
>;

/** What the Models screen asks of the engine. */
export interface LocalModelsPort extends Pick<ModelsPort, "models" | "agent"> {
  /** Where the embedded runtime's models are kept (the global home). */
  readonly homes: Pick<Homes, "global">;
}

/** The local model new chats use, if the default is the embedded runtime. */
async function inUse(port: LocalModelsPort): Promise<string | null> {
  try {
    const resolved = await modelSource(port, "models/local").resolve(port.agent("default"));
    return resolved.provider.name === "local" ? resolved.model : null;
  } catch {
    return null;
  }
}

/** A native open dialog for one .gguf file (the desktop app); null: closed without one. */
export type PickModelFile = () => Promise<string | null>;

export function localModelHandlers(
  port: LocalModelsPort,
  service: Pick<BridgeService, "emit">,
  pickModelFile?: PickModelFile,
): LocalHandlers {
  const homes = port.homes;
  let last = 0;
  const downloads = new Downloads({
    homes,
    onChange: (state) => {
      // Progress at most 4 times a second; every change of state at once.
      const now = performance.now();
      if (state.state === "running" && state.received > 0 && now - last < 250) return;
      last = now;
      service.emit(EVERYONE, "models/download", state);
      if (state.state === "done") service.emit(EVERYONE, "settings/changed", { section: "models" });
    },
  });
  const problem = (source: string, err: unknown, suggestion?: string) =>
    new ProblemError({
      source,
      title: (err as Error).message,
      ...(suggestion ? { suggestion } : {}),
    });

  return {
    "models/local": async () => {
      const total = machineMemory();
      let catalog: CatalogModel[] = [];
      let catalogError: string | null = null;
      try {
        catalog = await loadCatalog();
      } catch (err) {
        catalogError = (err as Error).message;
      }
      const [models, current] = await Promise.all([localModels(homes), inUse(port)]);
      const have = new Set(models.map((m) => m.name));
      return {
        dir: modelsDir(homes.global),
        models: models.map((m) => {
          const need = m.info ? memoryNeeded(m.info) : null;
          return {
            name: m.name,
            size: m.size,
            architecture: m.info?.architecture ?? null,
            parameters: m.info?.parameterCount ?? null,
            contextLength: m.info?.contextLength ?? null,
            quantization: m.info?.fileType ?? null,
            memoryNeeded: need,
            fit: need === null ? null : memoryFit(need, total),
            error: m.error,
            inUse: m.name === current,
          };
        }),
        catalog: catalog.map((c) => ({
          name: c.name,
          title: c.title,
          description: c.description,
          size: c.size,
          quantization: c.quantization,
          parameters: c.parameters,
          memoryNeeded: c.memoryNeeded,
          license: c.license,
          url: c.url,
          fit: memoryFit(c.memoryNeeded, total),
          downloaded: have.has(c.name),
        })),
        recommended: recommendedModel(catalog, total)?.name ?? null,
        totalMemory: total,
        downloads: downloads.list(),
        catalogError,
      };
    },
    "models/download": async ({ name }) => {
      try {
        return await downloads.start(name);
      } catch (err) {
        throw problem("models/download", err);
      }
    },
    "models/cancelDownload": ({ name }) => Promise.resolve({ cancelled: downloads.cancel(name) }),
    "models/pickFile": async () => {
      // A page served by `islet serve` has no dialog of the engine's to open: the path is typed.
      if (!pickModelFile)
        throw new ProblemError({
          source: "models/pickFile",
          title: "there is no file dialog here",
          suggestion: "type or paste the file's full path",
        });
      return { path: await pickModelFile() };
    },
    "models/addFile": async ({ path }) => {
      let added: { name: string };
      try {
        added = await addModelFile(homes, path);
      } catch (err) {
        throw problem("models/addFile", err);
      }
      service.emit(EVERYONE, "settings/changed", { section: "models" });
      return { name: added.name };
    },
    "models/delete": async ({ name }) => {
      try {
        await removeModel(homes, name);
      } catch (err) {
        throw problem("models/delete", err);
      }
      service.emit(EVERYONE, "settings/changed", { section: "models" });
      return { name };
    },
  };
}
