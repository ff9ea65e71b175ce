/**
 * One engine start in a fresh process, as `islet serve` starts one (plugins loaded, their folders
 * and the homes watched), then a conversation and its first turn against a loopback model that
 * notes when the request arrives. Prints the phases as JSON (ms since the process started). The
 * ecosystem bench (ecosystem-bench.ts) runs it once per measurement, so no start sees another's
 * warm module cache or JIT; the disk cache is warm after the first.
 *
 * node --no-node-snapshot bench/ecosystem-start.ts HOME WORKDIR
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";

/** The bench model's context window, in tokens. */
export const WINDOW = 8192;
/** Later turns timed; a profile of the turns alone passes more. */
const TURNS = Number(process.env.ISLET_BENCH_TURNS ?? 15);

export interface StartPhases {
  /** Node up and this file running. */
  boot: number;
  /** The engine's modules imported. */
  imported: number;
  /** createEngine resolved (plugins loaded). */
  created: number;
  /** Plugin folders and homes watched. */
  watching: number;
  /** The conversation opened. */
  opened: number;
  /** The model request arrived at the loopback server. */
  firstRequest: number;
  /** CPU time (all threads) from the engine's modules imported to that request. */
  startCpuMs: number;
  /** Bytes of that request's body. */
  requestBytes: number;
  /** Its system prompt's text and its tool definitions' JSON, in characters. */
  systemChars: number;
  toolsChars: number;
  /** RSS after the turns, the conversation still open, MB. */
  rssMb: number;
  /** The engine's own JS heap then, MB (the rest of the RSS: code, isolates, buffers). */
  heapMb: number;
  /** The first turn done. */
  firstDone: number;
  /** The median of the later turns, each from submit to done. */
  turnMs: number;
  /** The CPU time (all threads) of the later turns, per turn: steadier than the wall on a busy machine. */
  turnCpuMs: number;
}

/** A loopback OpenAI-compatible model answering "ok" to every chat. */
function model(onChat: (body: string) => void): Promise<{ url: string; close(): void }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      if (req.method === "POST" && req.url?.endsWith("/chat/completions")) {
        onChat(body);
        res.writeHead(200, { "content-type": "text/event-stream" });
        const chunk = (delta: object, finish: string | null): string =>
          `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        res.end(
          chunk({ role: "assistant", content: "ok" }, null) +
            chunk({}, "stop") +
            "data: [DONE]\n\n",
        );
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data: [{ id: "m", object: "model" }] }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/v1`, close: () => server.close() });
    }),
  );
}

async function start(home: string, workdir: string, window: number): Promise<StartPhases> {
  const boot = performance.now();
  let firstRequest = 0;
  let request = "";
  let startCpu = 0;
  /** CPU used until the engine's modules were imported (reset then). */
  const cpuAt = { import: process.cpuUsage() };
  const server = await model((body) => {
    if (firstRequest) return;
    firstRequest = performance.now();
    const cpu = process.cpuUsage(cpuAt.import);
    startCpu = (cpu.user + cpu.system) / 1000;
    request = body;
  });
  // An 8k-token model by default: the extensions' share of its window is one of the figures.
  mkdirSync(path.join(home, "config"), { recursive: true });
  writeFileSync(
    path.join(home, "config", "providers.yaml"),
    `default: { provider: bench, model: m }\nproviders:\n  bench: { type: openai-compatible, base_url: ${server.url}, context_length: ${window} }\n`,
  );
  const { createEngine } = await import("../main/engine/bootstrap.ts");
  const imported = performance.now();
  cpuAt.import = process.cpuUsage();
  const engine = await createEngine({
    home,
    workdir,
    env: {},
    plugins: {},
    warn: () => {},
  });
  const created = performance.now();
  await engine.watchPlugins();
  await engine.watchHomes();
  const watching = performance.now();
  const conversation = await engine.open({ emit: () => {} });
  const opened = performance.now();
  await conversation.submit("Please summarize this folder");
  const firstDone = performance.now();
  // Later turns of the same conversation: what every turn costs once started.
  const turns: number[] = [];
  const turnsCpu = process.cpuUsage();
  for (let i = 0; i < TURNS; i++) {
    const t = performance.now();
    await conversation.submit(`And now part ${i} of it`);
    turns.push(performance.now() - t);
  }
  const cpu = process.cpuUsage(turnsCpu);
  turns.sort((a, b) => a - b);
  const parsed = JSON.parse(request) as {
    messages: { role: string; content: unknown }[];
    tools?: unknown[];
  };
  const system = parsed.messages.filter((m) => m.role === "system");
  const text = (m: { content: unknown }) =>
    typeof m.content === "string" ? m.content : JSON.stringify(m.content);
  const memory = process.memoryUsage();
  const rssMb = memory.rss / 1e6;
  await conversation.close();
  await engine.close();
  server.close();
  return {
    boot,
    imported,
    created,
    watching,
    opened,
    firstRequest,
    startCpuMs: startCpu,
    requestBytes: Buffer.byteLength(request),
    systemChars: system.reduce((n, m) => n + text(m).length, 0),
    toolsChars: JSON.stringify(parsed.tools ?? []).length,
    rssMb,
    heapMb: memory.heapUsed / 1e6,
    firstDone,
    turnMs: turns[Math.floor(turns.length / 2)]!,
    turnCpuMs: (cpu.user + cpu.system) / 1000 / TURNS,
  };
}

if (import.meta.main) {
  const [home, workdir, window] = process.argv.slice(2);
  if (!home || !workdir) {
    console.error("usage: ecosystem-start.ts HOME WORKDIR [WINDOW]");
    process.exit(2);
  }
  process.stdout.write(`${JSON.stringify(await start(home, workdir, Number(window ?? WINDOW)))}\n`);
  process.exit(0);
}
