/** Every handler of the contract, one module per namespace. */
import type { Engine } from "../../engine/engine.ts";
import type { Chats } from "../chats.ts";
import type { BridgeQuestions } from "../questions.ts";
import type { BridgeHandlers, BridgeService } from "../service.ts";
import { appHandlers, type HostInfo } from "./app.ts";
import { chatHandlers } from "./chat.ts";
import { editorHandlers } from "./editor.ts";
import { pluginHandlers } from "./plugins.ts";
import { questionHandlers } from "./questions.ts";

export type { HostInfo };

export interface HandlerDeps {
  engine: Engine;
  host: HostInfo;
  service: Pick<BridgeService, "emit" | "onDisconnect">;
  questions: BridgeQuestions;
  chats: Chats;
}

export function bridgeHandlers(deps: HandlerDeps): BridgeHandlers {
  return {
    ...appHandlers(deps.engine, deps.host),
    ...pluginHandlers(deps.engine, deps.service),
    ...questionHandlers(deps.questions),
    ...chatHandlers(deps.chats),
    ...editorHandlers(deps.engine, deps.service),
  };
}
