/** Every handler of the contract, one module per namespace. */
import type { AppSettingsStore } from "../../config/app-settings.ts";
import type { Chats } from "../chats.ts";
import type { BridgeQuestions } from "../questions.ts";
import type { BridgeHandlers, BridgeService } from "../service.ts";
import { activationHandlers, type ActivationPort } from "./activation.ts";
import { agentHandlers, withDefaultAgent, type AgentsPort } from "./agents.ts";
import { appHandlers, type AppPort, type HostInfo } from "./app.ts";
import { chatHandlers } from "./chat.ts";
import { commandHandlers, type CommandsPort } from "./commands.ts";
import { editorHandlers, type EditorPort } from "./editor.ts";
import { mcpHandlers, type McpPort } from "./mcp.ts";
import { outputStyleHandlers, type OutputStylesPort } from "./output-styles.ts";
import { pluginHandlers, type PluginsPort } from "./plugins.ts";
import { localModelHandlers, type LocalModelsPort, type PickModelFile } from "./local-models.ts";
import { modelHandlers, withSessionModel, type ModelsPort } from "./models.ts";
import { packHandlers, type CatalogOptions, type PackOperations, type PacksPort } from "./packs.ts";
import { questionHandlers } from "./questions.ts";
import { sessionHandlers, withSessionEvents, type SessionsPort } from "./sessions.ts";
import { settingsHandlers, type SettingsPort } from "./settings.ts";
import { trustHandlers, type TrustPort } from "./trust.ts";

export type { HostInfo };

/** What each namespace asks of the engine (main/bridge/engine-ports.ts builds them). */
export interface EnginePorts {
  app: AppPort;
  plugins: PluginsPort;
  agents: AgentsPort;
  sessions: SessionsPort;
  models: ModelsPort;
  localModels: LocalModelsPort;
  settings: SettingsPort;
  commands: CommandsPort;
  outputStyles: OutputStylesPort;
  editor: EditorPort;
  mcp: McpPort;
  packs: PacksPort;
  activation: ActivationPort;
  trust: TrustPort;
}

export interface HandlerDeps {
  ports: EnginePorts;
  host: HostInfo;
  service: Pick<BridgeService, "emit" | "onDisconnect">;
  questions: BridgeQuestions;
  chats: Chats;
  /** The app's settings file (electron-store in the app, JsonStore under `islet serve`). */
  settings: AppSettingsStore;
  /** Installs, updates and removes plugin packs (main/packs/). */
  packs: PackOperations;
  catalog?: CatalogOptions;
  /** The desktop app's open dialog for a model file; absent under `islet serve`. */
  pickModelFile?: PickModelFile;
}

export function bridgeHandlers(deps: HandlerDeps): BridgeHandlers {
  const { ports } = deps;
  return {
    ...appHandlers(ports.app, deps.host),
    ...pluginHandlers(ports.plugins, deps.service),
    ...questionHandlers(deps.questions),
    ...withSessionEvents(
      withSessionModel(
        withDefaultAgent(chatHandlers(deps.chats), ports.agents, deps.settings),
        ports.models,
        deps.chats,
      ),
      deps.service,
    ),
    ...sessionHandlers(ports.sessions, deps.chats, deps.service),
    ...modelHandlers(ports.models, deps.chats, deps.service),
    ...localModelHandlers(ports.localModels, deps.service, deps.pickModelFile),
    ...agentHandlers(ports.agents, deps.chats, deps.settings, deps.service),
    ...settingsHandlers(ports.settings, deps.settings, deps.service),
    ...commandHandlers(ports.commands),
    ...outputStyleHandlers(ports.outputStyles, deps.chats),
    ...editorHandlers(ports.editor, deps.service),
    ...mcpHandlers(ports.mcp, deps.service),
    ...packHandlers({ ...deps, port: ports.packs }),
    ...activationHandlers(ports.activation, deps.service, deps.questions),
    ...trustHandlers(ports.trust, deps.service),
  };
}
