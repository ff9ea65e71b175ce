/** Saved sessions: the store, its record format and exports (see README.md in this folder). */
export {
  SessionStore,
  SessionError,
  type SessionErrorCode,
  type LoadedSession,
  type NewSession,
  type SessionState,
  type SessionStoreOptions,
  type SessionSummary,
} from "./store.ts";
export {
  SESSION_FORMAT_VERSION,
  type BodyRecord,
  type MetaRecord,
  type SessionRecord,
} from "./records.ts";
export {
  exportJson,
  exportMarkdown,
  toSessionExport,
  EXPORT_FORMAT,
  EXPORT_VERSION,
  type SessionExport,
} from "./export.ts";
export { newSessionId } from "./ids.ts";
export { titleFromText } from "./title.ts";
