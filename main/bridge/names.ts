/**
 * The names of the bridge's calls, streamed calls and pushed events, and the Electron IPC
 * channels that carry them, and nothing else: the sandboxed preload bundles this file to
 * whitelist what the renderer may invoke, and must not pull in zod. contract.ts gives each name
 * its schemas (and a type check keeps the lists equal).
 */

/** Request → one response. */
export const CALL_NAMES = [
  "app/info",
  "plugins/list",
  "plugins/reload",
  "plugins/restart",
  "question/answer",
  "chat/open",
  "chat/stop",
  "commands/list",
  "chat/history",
  "sessions/list",
  "sessions/rename",
  "sessions/delete",
  "sessions/export",
  "models/list",
  "models/select",
  "models/local",
  "models/download",
  "models/cancelDownload",
  "models/addFile",
  "models/pickFile",
  "models/delete",
  "agents/list",
  "agents/select",
  "outputStyles/list",
  "outputStyles/select",
  "settings/get",
  "settings/set",
  "settings/saveProvider",
  "settings/removeProvider",
  "settings/testProvider",
  "editor/files",
  "editor/read",
  "editor/write",
  "editor/create",
  "editor/rename",
  "editor/delete",
  "editor/templates",
  "editor/newPlugin",
  "editor/watchLog",
  "editor/unwatchLog",
  "editor/recordedTurns",
  "editor/replay",
  "plugins/setEnabled",
  "plugins/config",
  "plugins/saveConfig",
  "mcp/list",
  "mcp/setEnabled",
  "mcp/restart",
  "mcp/log",
  "catalog/list",
  "catalog/add",
  "catalog/remove",
  "packs/list",
  "packs/install",
  "packs/update",
  "packs/remove",
  "packs/checkLink",
  "activation/list",
  "activation/activate",
  "activation/deactivate",
  "trust/get",
  "trust/set",
] as const;
export type CallName = (typeof CALL_NAMES)[number];

/** Request → chunks → one result (or an error, or "cancelled" when the caller cancels). */
export const STREAM_NAMES = ["chat/send"] as const;
export type StreamName = (typeof STREAM_NAMES)[number];

/** Pushed by main, each to an address: every client, one client, or a conversation's clients. */
export const EVENT_NAMES = [
  "app/menu",
  "app/installLink",
  "plugins/changed",
  "engine/warning",
  "question/asked",
  "question/withdrawn",
  "sessions/changed",
  "settings/changed",
  "chat/event",
  "plugins/log",
  "mcp/changed",
  "models/download",
  "packs/progress",
  "catalog/changed",
  "activation/changed",
] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Electron IPC channels: one per call and per stream; chunks, cancels and events share one each. */
export const callChannel = (name: CallName): string => `islet:${name}`;
export const streamChannel = (name: StreamName): string => `islet:stream:${name}`;
export const CHUNK_CHANNEL = "islet:chunk";
export const CANCEL_CHANNEL = "islet:cancel";
/** The preload says a new page has loaded: the webContents' previous page is gone. */
export const HELLO_CHANNEL = "islet:hello";
export const EVENT_CHANNEL = "islet:event";

const isIn =
  <T extends string>(names: readonly T[]) =>
  (name: unknown): name is T =>
    typeof name === "string" && (names as readonly string[]).includes(name);

export const isCallName = isIn<CallName>(CALL_NAMES);
export const isStreamName = isIn<StreamName>(STREAM_NAMES);
export const isEventName = isIn<EventName>(EVENT_NAMES);
