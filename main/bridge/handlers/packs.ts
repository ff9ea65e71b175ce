/**
 * `catalog/*` and `packs/*`: the Catalog tab. An operation reports its progress to the client
 * that started it, asks that client (and no other) the pack-install / pack-update question — a
 * client that goes away cancels —, and when it is done the running engine loads, reloads or
 * unloads the pack's plugins before the call answers, so the next turn uses them.
 */
import { randomUUID } from "node:crypto";
import { realpath } from "node:fs/promises";
import path from "node:path";
import type { AppSettingsStore } from "../../config/app-settings.ts";
import { ProblemError } from "../../host/problem.ts";
import { ask, type QuestionPort } from "../../host/questions.ts";
import { loadCatalogs } from "../../packs/catalog/load.ts";
import { checkInstallLink } from "../../packs/link.ts";
import { checkCatalogSource, defaultCatalogFile } from "../../packs/catalog/sources.ts";
import type {
  InstalledPack,
  PackAddInput,
  PackOperationHooks,
  PackUpdateOutcome,
} from "../../packs/types.ts";
import type { PluginRuntime, ReloadReport } from "../../code-plugins/runtime/runtime.ts";
import type { BridgeQuestions } from "../questions.ts";
import {
  EVERYONE,
  toClient,
  type BridgeService,
  type CallHandlers,
  type ClientId,
} from "../service.ts";
import { catalogView, installedView } from "./packs-view.ts";

type Names =
  | "catalog/list"
  | "catalog/add"
  | "catalog/remove"
  | "packs/list"
  | "packs/install"
  | "packs/update"
  | "packs/remove"
  | "packs/checkLink";

/** What the handlers need of the pack manager (main/packs/index.ts). */
export interface PackOperations {
  list(): Promise<InstalledPack[]>;
  add(input: PackAddInput, hooks: PackOperationHooks): Promise<InstalledPack>;
  update(nameOrPlugin: string, hooks: PackOperationHooks): Promise<PackUpdateOutcome>;
  remove(nameOrPlugin: string): Promise<InstalledPack>;
}

export interface CatalogOptions {
  /** The default catalog; null for none (default: resources/catalog.yaml). */
  defaultFile?: string | null;
  /** Time limit for fetching a URL catalog. */
  timeoutMs?: number;
}

/** What the pack calls ask of the running engine. */
export interface PacksPort {
  /** The global home: relative catalog paths start there, URL catalogs are cached there. */
  readonly globalHome: string;
  /** The code plugins' runtime, to load a pack's plugins into; null with plugins off. */
  plugins(): Pick<PluginRuntime, "names" | "get" | "reloadChanged"> | null;
  /** Asks about the plugins' unanswered permission requests; reloads those granted more. */
  askPluginPermissions(): Promise<void>;
  /** Reloads the Claude Code plugins and the homes' Markdown (a pack may hold them). */
  reloadExtensions(): Promise<void>;
}

export interface PackDeps {
  port: PacksPort;
  settings: AppSettingsStore;
  service: Pick<BridgeService, "emit">;
  questions: BridgeQuestions;
  packs: PackOperations;
  catalog?: CatalogOptions;
}

/** An error as the Catalog tab shows it in place: its first line. */
function oneLine(source: string, err: unknown): ProblemError {
  if (err instanceof ProblemError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ProblemError({ source, title: message.split("\n")[0].trim() || "failed" });
}

export function packHandlers(deps: PackDeps): Pick<CallHandlers, Names> {
  const { port, settings, service, questions, packs } = deps;
  const defaultFile =
    deps.catalog?.defaultFile === undefined ? defaultCatalogFile() : deps.catalog.defaultFile;
  /** Packs being changed now, by name (or source, for an install whose name is not known yet). */
  const busy = new Set<string>();

  const view = async (refresh = false) => {
    const { catalogs } = await settings.read();
    const [set, installed] = await Promise.all([
      loadCatalogs({
        globalHome: port.globalHome,
        sources: catalogs,
        defaultFile,
        refresh,
        timeoutMs: deps.catalog?.timeoutMs,
      }),
      packs.list(),
    ]);
    return catalogView(set, installed, settings.file);
  };

  /** The plugin folders a pack holds as the runtime knows them, and the pack itself (new ones). */
  const reloadPack = async (dir: string): Promise<ReloadReport[]> => {
    const runtime = port.plugins();
    if (!runtime) {
      await port.reloadExtensions();
      return [];
    }
    const roots = new Set([dir, await realpath(dir).catch(() => dir)]);
    const inside = (d: string) =>
      [...roots].some((root) => d === root || d.startsWith(root + path.sep));
    const dirs = runtime
      .names()
      .map((name) => runtime.get(name)?.spec.dir)
      .filter((d): d is string => d !== undefined && inside(d));
    const reports = await runtime.reloadChanged([...roots, ...dirs]);
    // A marketplace's Claude Code plugins (commands, skills, agents, hooks, MCP servers) load or
    // unload with it, as its code plugins do.
    await port.reloadExtensions();
    service.emit(EVERYONE, "plugins/changed", { cause: "packs", reports });
    service.emit(EVERYONE, "catalog/changed", { cause: "packs" });
    // Anything the plugins ask for beyond what install consent granted is asked as at load.
    void port.askPluginPermissions();
    return reports;
  };

  /** Runs one operation on `key`, with progress and consent addressed to `client`. */
  const operate = async <T>(
    source: "packs/install" | "packs/update" | "packs/remove",
    key: string,
    client: ClientId,
    signal: AbortSignal,
    operation: string,
    run: (hooks: PackOperationHooks, cancelled: () => boolean) => Promise<T>,
  ): Promise<T> => {
    if (busy.has(key))
      throw new ProblemError({
        source,
        title: `${key} is already being installed, updated or removed`,
        suggestion: "wait for that to finish",
      });
    busy.add(key);
    let label = key;
    let refused = false;
    const port: QuestionPort = questions.port(() => toClient(client));
    const hooks: PackOperationHooks = {
      signal,
      progress: (p) =>
        service.emit(toClient(client), "packs/progress", { operation, pack: label, ...p }),
      consent: async (question) => {
        label = question.pack;
        const { answer } = await ask(port, question, signal);
        refused = answer === "cancel";
        return !refused;
      },
    };
    try {
      return await run(hooks, () => refused);
    } finally {
      busy.delete(key);
    }
  };

  return {
    "catalog/list": (request) => view(request?.refresh === true),

    "catalog/add": async ({ source: typed }) => {
      const checked = checkCatalogSource(typed);
      if (!checked.ok) throw new ProblemError({ source: "catalog/add", title: checked.error });
      const { catalogs } = await settings.read();
      if (!catalogs.includes(checked.source))
        await settings.update({ catalogs: [...catalogs, checked.source] });
      service.emit(EVERYONE, "catalog/changed", { cause: "catalogs" });
      return view(true);
    },

    "catalog/remove": async ({ source }) => {
      const { catalogs } = await settings.read();
      if (!catalogs.includes(source))
        throw new ProblemError({
          source: "catalog/remove",
          title: `catalogs: ${JSON.stringify(source)} is not in ${settings.file}`,
          suggestion: source === defaultFile ? "the default catalog is always listed" : undefined,
        });
      await settings.update({ catalogs: catalogs.filter((c) => c !== source) });
      service.emit(EVERYONE, "catalog/changed", { cause: "catalogs" });
      return view();
    },

    "packs/list": async () => ({ packs: (await packs.list()).map(installedView) }),

    "packs/install": async (request, { client, signal }) => {
      const operation = request.operation ?? randomUUID();
      const { source, ref, subpath, name, scope, via, plugin } = request;
      return operate(
        "packs/install",
        name ?? plugin ?? source,
        client,
        signal,
        operation,
        async (hooks, cancelled) => {
          let pack: InstalledPack;
          try {
            pack = await packs.add({ source, ref, subpath, name, scope, via, plugin }, hooks);
          } catch (err) {
            if (cancelled())
              return { operation, status: "cancelled" as const, pack: null, reports: [] };
            throw oneLine("packs/install", err);
          }
          const reports = await reloadPack(pack.dir);
          return { operation, status: "done" as const, pack: installedView(pack), reports };
        },
      );
    },

    "packs/checkLink": ({ query }) => {
      const checked = checkInstallLink(query);
      return checked.ok
        ? { link: checked.link, refused: null }
        : { link: null, refused: checked.error };
    },

    "packs/update": async ({ name, force, operation: id }, { client, signal }) => {
      const operation = id ?? randomUUID();
      return operate("packs/update", name, client, signal, operation, async (hooks, cancelled) => {
        let outcome: PackUpdateOutcome;
        try {
          outcome = await packs.update(name, { ...hooks, force });
        } catch (err) {
          if (cancelled())
            return {
              operation,
              status: "cancelled" as const,
              changed: false,
              from: null,
              to: null,
              pack: null,
              reports: [],
            };
          throw oneLine("packs/update", err);
        }
        const reports = outcome.changed ? await reloadPack(outcome.pack.dir) : [];
        return {
          operation,
          status: "done" as const,
          changed: outcome.changed,
          from: outcome.from,
          to: outcome.to,
          pack: installedView(outcome.pack),
          reports,
        };
      });
    },

    "packs/remove": async ({ name, operation: id }, { client, signal }) => {
      const operation = id ?? randomUUID();
      return operate("packs/remove", name, client, signal, operation, async (hooks) => {
        hooks.progress?.({ phase: "removing", message: `Removing ${name}` });
        let pack: InstalledPack;
        try {
          pack = await packs.remove(name);
        } catch (err) {
          throw oneLine("packs/remove", err);
        }
        const reports = await reloadPack(pack.dir);
        hooks.progress?.({ phase: "done", message: `Removed ${pack.name}` });
        return { operation, status: "done" as const, pack: installedView(pack), reports };
      });
    },
  };
}
