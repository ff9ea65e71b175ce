/**
 * An engine behind a bridge, as the UI hosts run it (the desktop app and `islet serve`): plugins
 * loaded and watched for hot reload, warnings and reloads pushed as events, the engine's
 * questions asked of the connected windows, and conversations opened by them.
 */
import { JsonAppSettingsStore, type AppSettingsStore } from "../config/app-settings.ts";
import { createEngine, type HostOptions } from "../engine/bootstrap.ts";
import type { Engine } from "../engine/engine.ts";
import type { Problem } from "../host/problem.ts";
import type { QuestionPort } from "../host/questions.ts";
import { Chats } from "./chats.ts";
import { chatsPort, enginePorts } from "./engine-ports.ts";
import { bridgeHandlers, type HostInfo } from "./handlers/index.ts";
import type { CatalogOptions, PackOperations } from "./handlers/packs.ts";
import type { PickModelFile } from "./handlers/local-models.ts";
import { packManager } from "../packs/index.ts";
import { BridgeQuestions } from "./questions.ts";
import { BridgeService, EVERYONE } from "./service.ts";

export interface BridgeHost {
  engine: Engine;
  service: BridgeService;
  close(): Promise<void>;
}

export async function openBridgeHost(
  opts: Omit<HostOptions, "warn"> & {
    host: HostInfo;
    warn?(problem: Problem): void;
    /** The app's settings file; default: the engine's own JSON store in the global home. */
    settings?: AppSettingsStore;
    /** Plugin packs; default: the pack manager on the engine's homes. */
    packs?: PackOperations;
    /** The default catalog and the time limit for URL catalogs (tests). */
    catalog?: CatalogOptions;
    /** A native open dialog for a model file (the desktop app); absent: the path is typed. */
    pickModelFile?: PickModelFile;
  },
): Promise<BridgeHost> {
  const service = new BridgeService();
  const questions = new BridgeQuestions(service);
  // The engine's own questions (workspace trust at start-up, plugin permissions): the host's own
  // port when it has one (a terminal for `islet serve`, native dialogs in the app: no window can
  // answer before the engine has started), else every window, first answer wins. Tool approval
  // goes to the conversation's windows (Chats).
  const engineQuestions: QuestionPort = opts.questions ?? questions.port(() => EVERYONE);
  // Warnings while loading reach no UI (none is connected yet; the plugin list carries the
  // plugin problems); later ones are pushed to every window, whole.
  const warn = (problem: Problem) => {
    opts.warn?.(problem);
    service.emit(EVERYONE, "engine/warning", problem);
  };
  const engine = await createEngine({ ...opts, questions: engineQuestions, warn });
  const chats = new Chats(chatsPort(engine), service, questions);
  const settings = opts.settings ?? new JsonAppSettingsStore(engine.homes.global, warn);
  const packs = opts.packs ?? packManager({ homes: engine.homes, env: opts.env, warn });
  service.handle(
    bridgeHandlers({
      ports: enginePorts(engine),
      host: opts.host,
      service,
      questions,
      chats,
      settings,
      packs,
      catalog: opts.catalog,
      pickModelFile: opts.pickModelFile,
    }),
  );
  const close = async () => {
    questions.withdrawAll();
    await chats.closeAll();
    await engine.close();
  };
  try {
    await engine.watchPlugins((reports) =>
      service.emit(EVERYONE, "plugins/changed", { cause: "file-change", reports }),
    );
    // Commands, skills, agents and shell hooks edited on disk: the plugin browser reads them again.
    await engine.watchHomes(() =>
      service.emit(EVERYONE, "plugins/changed", { cause: "file-change", reports: [] }),
    );
  } catch (err) {
    await close();
    throw err;
  }
  return { engine, service, close };
}
