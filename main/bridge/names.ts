/**
 * The names of the bridge's calls and pushed events, and nothing else: the sandboxed preload
 * bundles this file to whitelist what the renderer may invoke, and must not pull in zod.
 * contract.ts gives each name its schemas (and a type check keeps the two lists equal).
 */

export const CALL_NAMES = [
  "app/info",
  "plugins/list",
  "plugins/reload",
  "plugins/restart",
] as const;
export type CallName = (typeof CALL_NAMES)[number];

export const EVENT_NAMES = ["plugins/changed", "engine/warning"] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Electron IPC channels: one per call, one for every pushed event. */
export const callChannel = (name: CallName): string => `islet:${name}`;
export const EVENT_CHANNEL = "islet:event";

export function isCallName(name: unknown): name is CallName {
  return typeof name === "string" && (CALL_NAMES as readonly string[]).includes(name);
}

export function isEventName(name: unknown): name is EventName {
  return typeof name === "string" && (EVENT_NAMES as readonly string[]).includes(name);
}

/**
 * What the preload exposes as `window.islet`: the contract's calls and events by name, and
 * nothing else (never ipcRenderer). Payloads are checked in main; renderer/src/bridge/ipc.ts
 * gives this the contract's types.
 */
export interface PreloadApi {
  call(name: CallName, payload?: unknown): Promise<unknown>;
  /** Returns the unsubscribe function. */
  on(event: EventName, listener: (payload: unknown) => void): () => void;
}
