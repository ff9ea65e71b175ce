// IPC channel names shared by main/electron/ and preload/. No imports here: the sandboxed preload
// bundles this file and must not pull in zod or anything else.
// Placeholder until the bridge contract (one typed contract for Electron IPC and the loopback
// WebSocket, SPEC §2) replaces it.

export const CHANNELS = {
  ping: "islet:ping",
  appVersion: "islet:app/version",
} as const;

export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];
