/**
 * Sets up what the sessions, model and settings specs start from: a home whose providers.yaml
 * points at a loopback fake Ollama, and sessions created beforehand through the bridge of the
 * running `islet serve` (as another window would).
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { connectSocket } from "../../main/serve/testing.ts";
import type { Serve } from "./browser.ts";

export function providersYaml(ollamaUrl: string): string {
  return `# written by the e2e test\ndefault: { provider: local, model: small:1b }\nproviders:\n  local: { type: ollama, base_url: "${ollamaUrl}" }\n`;
}

export async function writeHome(home: string, ollamaUrl: string): Promise<void> {
  await mkdir(path.join(home, "config"), { recursive: true });
  await writeFile(path.join(home, "config", "providers.yaml"), providersYaml(ollamaUrl));
}

/** Opens a chat per prompt over the bridge and sends it; resolves with the session ids. */
export async function createSessions(serve: Serve, prompts: string[]): Promise<string[]> {
  const url = new URL(serve.url);
  const socket = await connectSocket(Number(url.port), {
    token: url.searchParams.get("token") ?? "",
  });
  const ids: string[] = [];
  try {
    for (const prompt of prompts) {
      const opened = await socket.call("chat/open", {});
      const id = (opened.result as { conversationId: string }).conversationId;
      const turn = socket.stream("chat/send", { conversationId: id, text: prompt });
      const end = await turn.end;
      if (!("result" in end)) throw new Error(`chat/send failed: ${JSON.stringify(end)}`);
      ids.push(id);
    }
  } finally {
    await socket.close();
  }
  return ids;
}

/** A bridge call from outside the page (joining `conversationId` first when given). */
export async function bridgeCall(
  serve: Serve,
  call: string,
  payload: unknown,
  join?: string,
): Promise<unknown> {
  const url = new URL(serve.url);
  const socket = await connectSocket(Number(url.port), {
    token: url.searchParams.get("token") ?? "",
  });
  try {
    if (join) await socket.call("chat/open", { sessionId: join });
    const reply = await socket.call(call, payload);
    if (!("result" in reply)) throw new Error(`${call} failed: ${JSON.stringify(reply)}`);
    return reply.result;
  } finally {
    await socket.close();
  }
}
