/**
 * The WebSocket transport's frames (`islet serve`): one JSON object per message. The renderer's
 * client and websocket.ts both use these schemas; the payloads inside are the contract's.
 *
 *   page → server   { id, call, payload? }     a call
 *                   { id, stream, payload? }   a streamed call
 *                   { cancel: id }             cancel that stream
 *   server → page   { id, chunk }              one chunk of stream `id`
 *                   { id, ok: true, result }   the end of call or stream `id` (Outcome)
 *                   { id, ok: false, problem } …failed (id null: the frame was unreadable)
 *                   { id, ok: false, cancelled: true }
 *                   { event, payload }         an event addressed to this page
 */
import { z } from "zod";
import { Problem } from "../host/problem.ts";

const Id = z.number().int().nonnegative();

export const CallFrame = z.strictObject({
  id: Id,
  call: z.string(),
  payload: z.unknown().optional(),
});
export const StreamFrame = z.strictObject({
  id: Id,
  stream: z.string(),
  payload: z.unknown().optional(),
});
export const CancelFrame = z.strictObject({ cancel: Id });
export const ClientFrame = z.union([CallFrame, StreamFrame, CancelFrame]);
export type ClientFrame = z.infer<typeof ClientFrame>;

export const ReplyFrame = z.union([
  /** `result` is absent when the response is empty (JSON drops undefined). */
  z.strictObject({ id: Id, ok: z.literal(true), result: z.unknown().optional() }),
  z.strictObject({ id: Id.nullable(), ok: z.literal(false), problem: Problem }),
  z.strictObject({ id: Id, ok: z.literal(false), cancelled: z.literal(true) }),
]);
export type ReplyFrame = z.infer<typeof ReplyFrame>;

export const ChunkFrame = z.strictObject({ id: Id, chunk: z.unknown() });
export const EventFrame = z.strictObject({ event: z.string(), payload: z.unknown() });

export const ServerFrame = z.union([ReplyFrame, ChunkFrame, EventFrame]);
export type ServerFrame = z.infer<typeof ServerFrame>;

/** Where `islet serve` accepts the bridge's WebSocket, and the query parameter with the token. */
export const BRIDGE_PATH = "/bridge";
export const TOKEN_PARAM = "token";
