/**
 * The local model runtime: a child process hosting node-llama-cpp (llama.cpp's prebuilt binary
 * from npm, never built or downloaded here), so a native crash or an out-of-memory kill takes
 * this process down and not the engine. It speaks protocol.ts over Node's IPC channel (or an
 * Electron utility process's port), keeps one model loaded between calls (host.ts), and exits
 * when the engine disconnects.
 *
 * llama.cpp's binary starts loading first (node-llama-cpp tests it in a process of its own); the
 * rest of the runtime's code is compiled meanwhile, so starting costs little more than loading
 * the model in the engine's own process would.
 *
 * argv[2]: JSON `{ threads?: number, gpu: "auto" | false, useMmap?: boolean, binary?: ProvenBinary }`
 * (`binary`: the llama.cpp binary an earlier runtime of this engine loaded; proven-binary.ts).
 */
import { HEARTBEAT_MS } from "../heartbeat.ts";
import type { FromRuntime } from "../protocol.ts";
import { llamaExport } from "./llama-lib.ts";
import { loadProvenBinary, provenBinary, type ProvenBinary } from "./proven-binary.ts";

interface Options {
  threads?: number;
  gpu: "auto" | false;
  useMmap?: boolean;
  binary?: ProvenBinary;
}

function binaryOption(v: unknown): ProvenBinary | undefined {
  const b = v as Partial<ProvenBinary> | undefined;
  return typeof b?.addon === "string" && typeof b.metadata === "string"
    ? { addon: b.addon, metadata: b.metadata }
    : undefined;
}

function options(raw: string | undefined): Options {
  const o = JSON.parse(raw ?? "{}") as Record<string, unknown>;
  return {
    gpu: o.gpu === false ? false : "auto",
    ...(typeof o.threads === "number" && o.threads >= 1 ? { threads: Math.floor(o.threads) } : {}),
    ...(typeof o.useMmap === "boolean" ? { useMmap: o.useMmap } : {}),
    ...(binaryOption(o.binary) ? { binary: binaryOption(o.binary) } : {}),
  };
}

/** Electron's utility process talks through parentPort; Node's fork through process.send. */
interface ParentPort {
  on(event: "message", listener: (e: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}
const parentPort = (process as { parentPort?: ParentPort }).parentPort;

function send(message: FromRuntime): void {
  if (parentPort) parentPort.postMessage(message);
  else if (process.connected) process.send?.(message);
}

// The engine went away (exited, crashed, or unloaded us): nothing is left to answer. (A utility
// process ends with the app.)
process.on("disconnect", () => process.exit(0));
setInterval(() => send({ type: "heartbeat" }), HEARTBEAT_MS);

const opts = options(process.argv[2]);
const recentLog: string[] = [];
const logger = (level: string, message: string) => {
  recentLog.push(message);
  if (recentLog.length > 50) recentLog.shift();
  process.stderr.write(`[llama.cpp ${level}] ${message}\n`);
};
/** Set when the proven binary loaded (so the engine keeps passing it on). */
let loadedProven: ProvenBinary | undefined;
// Only the modules that load llama.cpp before it starts: the rest loads while it does.
async function startLlama() {
  const LlamaLogLevel = await llamaExport("LlamaLogLevel");
  const common = {
    logLevel: LlamaLogLevel.warn,
    logger,
    ...(opts.threads ? { maxThreads: opts.threads } : {}),
  };
  if (opts.binary) {
    try {
      const loaded = await loadProvenBinary(opts.binary, common);
      loadedProven = opts.binary;
      return loaded;
    } catch (err) {
      // Moved or replaced since (an update): find and test it again.
      process.stderr.write(`local runtime: ${(err as Error).message}; testing the binary again\n`);
    }
  }
  const getLlama = await llamaExport("getLlama");
  return getLlama({ build: "never", gpu: opts.gpu, ...common });
}
const llama = startLlama();
llama.catch(() => undefined); // reported below, once the host can word it

const { Runtime, failure } = await import("./host.ts");
const runtime = new Runtime({ llama, send, recentLog, useMmap: opts.useMmap });
const receive = (raw: unknown) => {
  if (!runtime.receive(raw)) process.exit(2);
};
if (parentPort) parentPort.on("message", (e) => receive(e.data));
else process.on("message", receive);
llama.then(
  (l) => {
    const binary = loadedProven ?? provenBinary(l);
    send({ type: "ready", pid: process.pid, gpu: String(l.gpu), ...(binary ? { binary } : {}) });
  },
  (err: unknown) => {
    // No binary: every call fails with the reason, and the engine stays up.
    const { kind, message } = failure(err);
    process.stderr.write(`local runtime: ${kind}: ${message}\n`);
    send({ type: "ready", pid: process.pid, gpu: "none" });
  },
);
