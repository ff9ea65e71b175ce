/** `sessions/*`: the saved conversations, for the sessions column (list, search, rename, delete, export). */
import { z } from "zod";

const SessionId = z.string().min(1);

export const SessionItem = z.strictObject({
  id: SessionId,
  title: z.string(),
  /** ISO times. */
  createdAt: z.string(),
  updatedAt: z.string(),
  messageCount: z.number().int().nonnegative(),
  agent: z.string(),
  provider: z.string(),
  model: z.string(),
  /** Open in some window now. */
  open: z.boolean(),
  /** For a search: the piece of message text that matched (null when the title did). */
  match: z.string().nullable(),
});
export type SessionItem = z.infer<typeof SessionItem>;

export const EXPORT_FORMATS = ["markdown", "json"] as const;

/** Newest first; `query` matches titles and message text, case-insensitively. */
export const SessionsList = {
  request: z.strictObject({ query: z.string().max(500).optional() }),
  response: z.strictObject({ sessions: z.array(SessionItem) }),
};

export const SessionsRename = {
  request: z.strictObject({
    id: SessionId,
    title: z
      .string()
      .trim()
      .min(1, "title: must not be empty")
      .max(200, "title: at most 200 characters"),
  }),
  response: z.strictObject({ id: SessionId, title: z.string() }),
};

/** A session open in a window is closed there first (its turn stopped); the file goes. */
export const SessionsDelete = {
  request: z.strictObject({ id: SessionId }),
  response: z.strictObject({ id: SessionId, closed: z.boolean() }),
};

/** The session as a file to save: its text and a suggested file name. */
export const SessionsExport = {
  request: z.strictObject({ id: SessionId, format: z.enum(EXPORT_FORMATS) }),
  response: z.strictObject({ fileName: z.string(), mimeType: z.string(), text: z.string() }),
};

/** A session was created, renamed, deleted or written to: lists are stale (to everyone). */
export const SessionsChanged = z.strictObject({
  cause: z.enum(["created", "updated", "renamed", "deleted"]),
  id: SessionId,
});
