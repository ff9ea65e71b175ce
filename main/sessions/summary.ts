/**
 * A session's line in `list()`. It comes from the same fold that load() and resume use
 * (reconstruct.ts), so the list, `sessions show` and a resumed session always agree on what a
 * session holds, damaged lines included; the index cache (index-cache.ts) keeps listing cheap.
 */
import { reconstruct, type Fallback } from "./reconstruct.ts";

export interface SessionSummary {
  id: string;
  title: string;
  createdAt: string;
  /** ISO time of the last write (the file's mtime). */
  updatedAt: string;
  /** Messages in the reconstructed history (after removals and compaction). */
  messageCount: number;
  workdir: string;
  agent: string;
  provider: string;
  model: string;
}

export type ScannedSummary = Omit<SessionSummary, "updatedAt">;

export function scanSummary(text: string, file: string, fallback: Fallback): ScannedSummary {
  const state = reconstruct(text, file, fallback);
  return {
    // The file name is the id load() and resolve() use, whatever the meta line says.
    id: fallback.id,
    title: state.title,
    createdAt: state.meta.createdAt,
    messageCount: state.messages.length,
    workdir: state.meta.workdir,
    agent: state.agent,
    provider: state.provider,
    model: state.model,
  };
}
