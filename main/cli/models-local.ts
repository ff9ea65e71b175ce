/**
 * The embedded runtime's side of `islet models`: `pull NAME|URL` (progress on a terminal,
 * Ctrl-C keeps the partial file for the next pull), `rm NAME`, and the lines `list` prints for
 * the models folder and the catalog.
 */
import type { Homes } from "../config/homes.ts";
import {
  describeFit,
  DownloadError,
  fitOf,
  formatBytes,
  formatDuration,
  isDownloaded,
  loadCatalog,
  machineMemory,
  localModels,
  memoryNeeded,
  memoryFit,
  modelsDir,
  planPull,
  pullModel,
  recommendedModel,
  removeModel,
  type CatalogModel,
  type DownloadProgress,
  type LocalModel,
} from "../models/index.ts";
import type { Output } from "./render.ts";

/** "1.2 GB of 2.5 GB  48%  12.3 MB/s  1:45 left" */
export function progressLine(p: DownloadProgress): string {
  const rate = `${formatBytes(p.bytesPerSecond)}/s`;
  if (p.total === null) return `${formatBytes(p.received)}  ${rate}`;
  const pct = Math.floor((p.received / p.total) * 100);
  const left = formatDuration(p.secondsLeft);
  return `${formatBytes(p.received)} of ${formatBytes(p.total)}  ${pct}%  ${rate}${left ? `  ${left} left` : ""}`;
}

export async function pullCommand(
  homes: Homes,
  what: string,
  io: Output,
  terminal: boolean,
): Promise<number> {
  const plan = await planPull(homes, what);
  if (await isDownloaded(plan)) {
    io.out(`${plan.name} is already downloaded (${plan.dest})\n`);
    return 0;
  }
  const c = plan.catalog;
  io.err(
    c
      ? `Downloading ${c.name} (${formatBytes(c.size)}, ${c.quantization}, ${c.license}) from ${new URL(c.url).host}\n`
      : `Downloading ${plan.name} from ${new URL(plan.url).host} (no checksum to verify: not a catalog model)\n`,
  );
  if (c && fitOf(c) !== "fits") {
    io.err(`warning: ${c.name} ${describeFit(c.memoryNeeded)} on this machine\n`);
  }
  const abort = new AbortController();
  const onSigint = () => abort.abort();
  process.on("SIGINT", onSigint);
  let lastDecile = -1;
  try {
    const model = await pullModel(homes, plan, {
      signal: abort.signal,
      onProgress: (p) => {
        if (terminal) {
          io.err(`\r\x1b[2K  ${progressLine(p)}`);
          return;
        }
        // Not a terminal (a log, CI): a line every 10%.
        const decile = p.total ? Math.floor((p.received / p.total) * 10) : -1;
        if (decile > lastDecile) {
          lastDecile = decile;
          io.err(`  ${progressLine(p)}\n`);
        }
      },
    });
    if (terminal) io.err("\n");
    io.out(`${model.name} is ready (${model.file})\n`);
    return 0;
  } catch (err) {
    if (terminal) io.err("\n");
    if (err instanceof DownloadError && err.kind === "cancelled") {
      io.err(`islet: ${err.message}\n`);
      return 130;
    }
    throw err;
  } finally {
    process.off("SIGINT", onSigint);
  }
}

export async function rmCommand(homes: Homes, name: string, io: Output): Promise<number> {
  const file = await removeModel(homes, name);
  io.out(`Deleted ${name} (${file})\n`);
  return 0;
}

export interface LocalListing {
  dir: string;
  models: {
    name: string;
    file: string;
    size: number;
    architecture: string | null;
    parameters: number | null;
    contextLength: number | null;
    quantization: string | null;
    memoryNeeded: number | null;
    fit: string | null;
    error: string | null;
  }[];
  catalog: (Omit<CatalogModel, "description"> & { downloaded: boolean; fit: string })[];
  /** What `islet models pull` would fetch first on this machine. */
  recommended: string | null;
  totalMemory: number;
}

export async function localListing(homes: Homes): Promise<LocalListing> {
  const [models, catalog] = await Promise.all([localModels(homes), loadCatalog()]);
  const have = new Set(models.map((m) => m.name));
  return {
    dir: modelsDir(homes.global),
    models: models.map((m: LocalModel) => {
      const need = m.info ? memoryNeeded(m.info) : null;
      return {
        name: m.name,
        file: m.file,
        size: m.size,
        architecture: m.info?.architecture ?? null,
        parameters: m.info?.parameterCount ?? null,
        contextLength: m.info?.contextLength ?? null,
        quantization: m.info?.fileType ?? null,
        memoryNeeded: need,
        fit: need === null ? null : memoryFit(need),
        error: m.error,
      };
    }),
    catalog: catalog.map(({ description: _, ...c }) => ({
      ...c,
      downloaded: have.has(c.name),
      fit: memoryFit(c.memoryNeeded),
    })),
    recommended: recommendedModel(catalog)?.name ?? null,
    totalMemory: machineMemory(),
  };
}

function params(n: number | null): string {
  if (!n) return "";
  if (n >= 1e9) return `${(n / 1e9).toFixed(1)}B`;
  return n >= 1e6 ? `${Math.round(n / 1e6)}M` : `${Math.round(n / 1e3)}K`;
}

export function printLocal(l: LocalListing, io: Output): void {
  io.out(`local (embedded runtime) ${l.dir}\n`);
  for (const m of l.models) {
    if (m.error) {
      io.out(`  ${m.name}  unusable: ${m.error}\n`);
      continue;
    }
    const what = [m.architecture, params(m.parameters), m.quantization].filter(Boolean).join(" ");
    const fit = m.memoryNeeded === null ? "" : `  ${describeFit(m.memoryNeeded, l.totalMemory)}`;
    io.out(`  ${m.name}  ${formatBytes(m.size)}  ${what}  context ${m.contextLength}${fit}\n`);
  }
  if (l.models.length === 0) {
    const r = l.catalog.find((c) => c.name === l.recommended);
    io.out(
      r
        ? `  (no models yet: \`islet models pull ${r.name}\` downloads ${r.title}, ${formatBytes(r.size)})\n`
        : "  (no models yet)\n",
    );
  }
  const more = l.catalog.filter((c) => !c.downloaded);
  if (more.length) {
    io.out("catalog (islet models pull NAME)\n");
    for (const c of more) {
      const mark = c.name === l.recommended ? "  recommended" : "";
      io.out(
        `  ${c.name}  ${formatBytes(c.size)}  ${c.parameters} ${c.quantization}  ${c.license}  ${describeFit(c.memoryNeeded, l.totalMemory)}${mark}\n`,
      );
    }
  }
}
