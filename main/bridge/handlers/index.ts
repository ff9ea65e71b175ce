/** Every handler of the contract, one module per namespace. */
import type { AppSettingsStore } from "../../config/app-settings.ts";
import type { Engine } from "../../engine/engine.ts";
import type { Chats } from "../chats.ts";
import type { BridgeQuestions } from "../questions.ts";
import type { BridgeHandlers, BridgeService } from "../service.ts";
import { activationHandlers } from "./activation.ts";
import { agentHandlers, withDefaultAgent } from "./agents.ts";
import { appHandlers, type HostInfo } from "./app.ts";
import { chatHandlers } from "./chat.ts";
import { commandHandlers } from "./commands.ts";
import { editorHandlers } from "./editor.ts";
import { mcpHandlers } from "./mcp.ts";
import { outputStyleHandlers } from "./output-styles.ts";
import { pluginHandlers } from "./plugins.ts";
import { localModelHandlers } from "./local-models.ts";
import { modelHandlers, withSessionModel } from "./models.ts";
import { packHandlers, type CatalogOptions, type PackOperations } from "./packs.ts";
import { questionHandlers } from "./questions.ts";
import { sessionHandlers, withSessionEvents } from "./sessions.ts";
import { settingsHandlers } from "./settings.ts";
import { trustHandlers } from "./trust.ts";

export type { HostInfo };

export interface HandlerDeps {
  engine: Engine;
  host: HostInfo;
  service: Pick<BridgeService, "emit" | "onDisconnect">;
  questions: BridgeQuestions;
  chats: Chats;
  /** The app's settings file (electron-store in the app, JsonStore under `islet serve`). */
  settings: AppSettingsStore;
  /** Installs, updates and removes plugin packs (main/packs/). */
  packs: PackOperations;
  catalog?: CatalogOptions;
}

export function bridgeHandlers(deps: HandlerDeps): BridgeHandlers {
  return {
    ...appHandlers(deps.engine, deps.host),
    ...pluginHandlers(deps.engine, deps.service),
    ...questionHandlers(deps.questions),
    ...withSessionEvents(
      withSessionModel(
        withDefaultAgent(chatHandlers(deps.chats), deps.engine, deps.settings),
        deps.engine,
        deps.chats,
      ),
      deps.service,
    ),
    ...sessionHandlers(deps.engine, deps.chats, deps.service),
    ...modelHandlers(deps.engine, deps.chats, deps.service),
    ...localModelHandlers(deps.engine, deps.service),
    ...agentHandlers(deps.engine, deps.chats, deps.settings, deps.service),
    ...settingsHandlers(deps.engine, deps.settings, deps.service),
    ...commandHandlers(deps.engine),
    ...outputStyleHandlers(deps.engine, deps.chats),
    ...editorHandlers(deps.engine, deps.service),
    ...mcpHandlers(deps.engine, deps.service),
    ...packHandlers(deps),
    ...activationHandlers(deps.engine, deps.service, deps.questions),
    ...trustHandlers(deps.engine, deps.service),
  };
}
