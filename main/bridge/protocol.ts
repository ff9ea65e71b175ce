/**
 * The WebSocket transport's frames (`islet serve`): one JSON object per message. The renderer's
 * client and websocket.ts both use these schemas; the payloads inside are the contract's.
 */
import { z } from "zod";

export const CallFrame = z.strictObject({
  id: z.number().int().nonnegative(),
  call: z.string(),
  payload: z.unknown().optional(),
});
export type CallFrame = z.infer<typeof CallFrame>;

export const ReplyFrame = z.union([
  z.strictObject({ id: z.number(), ok: z.literal(true), result: z.unknown() }),
  /** id null: the frame could not be read, so it cannot be answered by id. */
  z.strictObject({ id: z.number().nullable(), ok: z.literal(false), error: z.string() }),
]);
export type ReplyFrame = z.infer<typeof ReplyFrame>;

export const EventFrame = z.strictObject({ event: z.string(), payload: z.unknown() });
export type EventFrame = z.infer<typeof EventFrame>;

export const ServerFrame = z.union([ReplyFrame, EventFrame]);
export type ServerFrame = z.infer<typeof ServerFrame>;

/** Where `islet serve` accepts the bridge's WebSocket, and the query parameter with the token. */
export const BRIDGE_PATH = "/bridge";
export const TOKEN_PARAM = "token";
