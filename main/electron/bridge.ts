// SEAM: this is where the engine bridge gets wired to Electron IPC.
//
// Today it only registers the two calls of contract.ts that prove the plumbing
// (renderer → preload → ipcMain with sender check and zod, and back). When the bridge contract
// lands (one typed contract of calls + pushed events, implemented by the engine's bridge
// service and shared with the `islet serve` WebSocket transport), replace the body of
// `registerBridge` with: create the engine service, and for each call of the contract
// `handle(channel, schemas, (req) => service.call(name, req))`; push events with
// `webContents.send` to trusted windows only (security.ts). preload/index.ts mirrors it.
import { app } from "electron";
import { CHANNELS } from "./channels.ts";
import { CALLS, type AppVersion } from "./contract.ts";
import { handle, unhandle } from "./ipc.ts";

export function appVersion(): AppVersion {
  // `?? "unknown"`: these are always set under Electron, not under the plain-Node test harness.
  const versions: Partial<Record<string, string>> = process.versions;
  return {
    name: app.getName(),
    version: app.getVersion(),
    electron: versions["electron"] ?? "unknown",
    chrome: versions["chrome"] ?? "unknown",
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
  };
}

export function registerBridge(): void {
  handle(CHANNELS.ping, CALLS[CHANNELS.ping], (request) => ({
    nonce: request.nonce,
    receivedAt: Date.now(),
  }));
  handle(CHANNELS.appVersion, CALLS[CHANNELS.appVersion], () => appVersion());
}

export function unregisterBridge(): void {
  for (const channel of Object.values(CHANNELS)) unhandle(channel);
}
