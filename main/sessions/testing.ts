/** Shared fixtures for the session tests (not used by production code). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestContext } from "node:test";
import type { Message } from "../core/message.ts";
import type { Stats } from "../core/types.ts";
import { encodeRecord } from "./records.ts";
import { SessionStore } from "./store.ts";

export function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), "islet-sessions-"));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export function msg(
  id: string,
  role: Message["role"],
  content: string,
  extra: Partial<Message> = {},
): Message {
  return { id, role, content, kind: "normal", createdAt: "2026-11-21T10:00:00.000Z", ...extra };
}

export const baseSession = {
  workdir: "/work/proj",
  agent: "coder",
  provider: "ollama",
  model: "qwen3:8b",
};

/** A store in a fresh folder with one session; files are closed before the folder is removed. */
export async function storeWithSession(
  t: TestContext,
): Promise<{ store: SessionStore; id: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), "islet-sessions-"));
  const store = new SessionStore(dir, { appVersion: "0.1.0" });
  t.after(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const id = await store.create(baseSession);
  return { store, id, dir };
}

export const stats: Stats = {
  startTime: "2026-11-21T10:00:00.000Z",
  duration: 65_000,
  interactions: 2,
  turns: 2,
  iterations: 5,
  tools: { calls: 3, errors: 1 },
  parseRetries: 0,
  compactions: 1,
  tokens: { in: 1200, out: 340 },
  topTools: [{ name: "Read", count: 2 }],
};

/** The meta line of a session `id` with baseSession's fields. */
export const metaLine = (id: string) =>
  encodeRecord({
    t: "meta",
    v: 1,
    id,
    title: "",
    createdAt: "2026-11-21T10:00:00.000Z",
    appVersion: "",
    ...baseSession,
  });

/** Two good messages around the damage a crash, a bad editor or a bad merge leaves behind. */
export function damagedSession(id: string): string {
  const bogus = encodeRecord({ t: "message", message: msg("bad", "user", "x") }).replace(
    '"role":"user"',
    '"role":"robot"',
  );
  return [
    metaLine(id).trimEnd(),
    encodeRecord({ t: "message", message: msg("a", "user", "Question") }).trimEnd(),
    "{not json",
    bogus.trimEnd(),
    encodeRecord({ t: "message", message: msg("b", "assistant", "Answer") }).trimEnd(),
    '{"t":"message","message":{"id":"torn","role":"user","content":"cut off"}',
  ].join("\n");
}
