// Preload (sandboxed, CommonJS: out/preload/index.cjs). Exposes named functions only — never
// ipcRenderer itself, never a generic invoke(channel, …) — as `window.islet`.
// SEAM: when the bridge contract lands, this mirrors its calls (and subscribes to its events)
// one named function each; main/electron/bridge.ts is the other side.
import { contextBridge, ipcRenderer } from "electron";
import { CHANNELS } from "../main/electron/channels.ts";
import type { IsletApi, PingRequest } from "../main/electron/contract.ts";

const api: IsletApi = {
  ping: (request: PingRequest) => ipcRenderer.invoke(CHANNELS.ping, request),
  appVersion: () => ipcRenderer.invoke(CHANNELS.appVersion),
};

contextBridge.exposeInMainWorld("islet", Object.freeze(api));
