// Minimal typed calls that prove the main ⇄ preload ⇄ renderer plumbing. Every payload that
// crosses is validated with zod on the main side, both ways.
// SEAM: the engine bridge contract (calls + pushed events, shared with `islet serve`) supersedes
// this file; keep the shape (request schema, response schema per channel) so the wiring in
// ipc.ts stays as it is.
import { z } from "zod";
import { CHANNELS } from "./channels.ts";

export const PingRequest = z.strictObject({ nonce: z.string().min(1).max(128) });
export type PingRequest = z.infer<typeof PingRequest>;

export const PingResponse = z.strictObject({ nonce: z.string(), receivedAt: z.number() });
export type PingResponse = z.infer<typeof PingResponse>;

/** `app/version` takes no payload. */
export const AppVersionRequest = z.undefined();

export const AppVersion = z.strictObject({
  name: z.string(),
  version: z.string(),
  electron: z.string(),
  chrome: z.string(),
  node: z.string(),
  platform: z.string(),
});
export type AppVersion = z.infer<typeof AppVersion>;

export const CALLS = {
  [CHANNELS.ping]: { request: PingRequest, response: PingResponse },
  [CHANNELS.appVersion]: { request: AppVersionRequest, response: AppVersion },
} as const;

/** What preload exposes as `window.islet`. */
export interface IsletApi {
  ping(request: PingRequest): Promise<PingResponse>;
  appVersion(): Promise<AppVersion>;
}
