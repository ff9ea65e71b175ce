/**
 * The one bridge the UI talks to. In the desktop app the preload put it on `window.islet`; in a
 * browser opened on `islet serve` it is the WebSocket. The rest of the UI cannot tell which.
 */
import type { Bridge } from "../../../main/bridge/contract.ts";
import { ipcBridge } from "./ipc.ts";
import { websocketBridge } from "./websocket.ts";

export type { Bridge };

export function connectBridge(): Bridge {
  return window.islet ? ipcBridge(window.islet) : websocketBridge(window.location);
}
