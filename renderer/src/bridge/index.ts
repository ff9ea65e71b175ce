/**
 * The one bridge the UI talks to. In the desktop app the preload put it on `window.islet`; in a
 * browser opened on `islet serve` it is the WebSocket. The rest of the UI cannot tell which,
 * except for the connection state: IPC is always open, a WebSocket can drop and reconnect.
 */
// First: zod must be jitless before any module builds a schema (the CSP has no 'unsafe-eval').
import "./zod-csp.ts";
import type { Bridge } from "../../../main/bridge/contract.ts";
import { ipcBridge } from "./ipc.ts";
import { websocketBridge, type ConnectionState } from "./websocket.ts";

export type { Bridge, ConnectionState };

/** The bridge plus its connection state (always "open" over IPC). */
export interface LiveBridge extends Bridge {
  readonly state: ConnectionState;
  /** Returns the unsubscribe function. */
  onState(listener: (state: ConnectionState) => void): () => void;
}

export function connectBridge(): LiveBridge {
  if (!window.islet) return websocketBridge(window.location);
  const ipc = ipcBridge(window.islet);
  return {
    call: ipc.call,
    stream: ipc.stream,
    on: ipc.on,
    state: "open",
    onState: () => () => undefined,
  };
}
