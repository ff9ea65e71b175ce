/**
 * Child process for crash.test.ts: appends numbered messages to a session as fast as it can and,
 * after each append returns, reports the index on stdout — until the parent SIGKILLs it.
 * Usage: node crash-writer.ts <sessionsDir> <sessionId>
 */
import { writeSync } from "node:fs";
import { SessionStore } from "./store.ts";

/** Deterministic content, so the parent can check every loaded message byte for byte. */
export function crashContent(i: number): string {
  // Mostly small records, with a large one now and then so a kill can land inside a long write.
  const size = i % 7 === 3 ? 256 * 1024 : 200 + ((i * 131) % 1800);
  return `record ${i} ` + String.fromCharCode(97 + (i % 26)).repeat(size);
}

async function main(dir: string, id: string): Promise<void> {
  const store = new SessionStore(dir);
  for (let i = 0; ; i++) {
    store.appendMessage(id, {
      id: `m${i}`,
      role: i % 2 === 0 ? "user" : "assistant",
      content: crashContent(i),
      kind: "normal",
      createdAt: new Date().toISOString(),
    });
    // fd 1 is a pipe: writeSync reports before the next append starts.
    writeSync(1, `${i}\n`);
    if (i % 10 === 9) await store.flush(id);
  }
}

if (import.meta.main) {
  const [dir, id] = process.argv.slice(2);
  await main(dir, id);
}
