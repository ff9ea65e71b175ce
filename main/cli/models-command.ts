/**
 * `islet models [list] [--json]`: the embedded runtime's models (and the catalog) beside the
 * local servers found on loopback and the configured providers' models; `islet models pull
 * NAME|URL` and `islet models rm NAME` manage the embedded ones (models-local.ts).
 */
import { resolveHomes } from "../config/homes.ts";
import {
  createProvider,
  detectLocalServers,
  loadProvidersConfig,
  type DetectOptions,
} from "../providers/index.ts";
import { loadEnvFile } from "../config/env-file.ts";
import { modelsDir } from "../models/index.ts";
import path from "node:path";
import { COMMON_OPTIONS, parseFlags } from "./options.ts";
import type { Output } from "./render.ts";
import { localListing, printLocal, pullCommand, rmCommand } from "./models-local.ts";
import { UsageError } from "./usage.ts";

interface Row {
  provider: string;
  kind: string;
  baseUrl: string;
  source: "detected" | "configured";
  models: string[];
  error?: string;
}

export async function modelsCommand(
  argv: string[],
  io: Output,
  detectOptions: DetectOptions = {},
): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    json: { type: "boolean" },
  });
  const homes = resolveHomes({ home: values.home, workdir: values.workdir });
  const [sub, arg, extra] = positionals;
  if (sub === "pull" || sub === "rm") {
    if (!arg || extra !== undefined)
      throw new UsageError(`usage: islet models ${sub} ${sub === "pull" ? "NAME|URL" : "NAME"}`);
    if (sub === "rm") return rmCommand(homes, arg, io);
    return pullCommand(homes, arg, io, process.stderr.isTTY === true);
  }
  if (sub !== undefined && sub !== "list") {
    throw new UsageError(`unknown models command "${sub}"; use list, pull or rm`);
  }
  const envFile = values["env-file"]
    ? loadEnvFile(path.resolve(values["env-file"]), true)
    : loadEnvFile(path.join(homes.workdir, "secrets.env"), false);
  const env = { ...envFile, ...process.env };
  const [detected, configs, local] = await Promise.all([
    detectLocalServers({ timeoutMs: 500, ...detectOptions }),
    loadProvidersConfig({ global: homes.global, project: homes.project }),
    localListing(homes),
  ]);
  const rows: Row[] = detected.map((s) => ({
    provider: s.id,
    kind: s.kind,
    baseUrl: s.baseUrl,
    source: "detected",
    models: s.models.map((m) => m.name),
  }));
  await Promise.all(
    Object.values(configs.providers).map(async (c) => {
      const row: Row = {
        provider: c.name,
        kind: c.type,
        baseUrl: c.baseUrl ?? "",
        source: "configured",
        models: [],
      };
      rows.push(row);
      try {
        const provider = createProvider(c, env, modelsDir(homes.global));
        row.baseUrl = provider.baseUrl;
        row.models = (await provider.listModels(AbortSignal.timeout(5000))).map((m) => m.name);
      } catch (err) {
        row.error = (err as Error).message;
      }
    }),
  );
  if (values.json) {
    io.out(
      `${JSON.stringify({ default: configs.default ?? null, local, providers: rows }, null, 2)}\n`,
    );
    return 0;
  }
  printLocal(local, io);
  if (rows.length === 0) {
    io.out(
      "No local model server found on 127.0.0.1 (Ollama 11434, LM Studio 1234, llama.cpp 8080) and no providers configured.\n",
    );
    return 0;
  }
  for (const r of rows) {
    io.out(`${r.provider} (${r.kind}, ${r.source}) ${r.baseUrl}\n`);
    if (r.error) io.out(`  error: ${r.error}\n`);
    else if (r.models.length === 0) io.out("  (no models)\n");
    for (const m of r.models) io.out(`  ${m}\n`);
  }
  return 0;
}
