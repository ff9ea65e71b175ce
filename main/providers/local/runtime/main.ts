/**
 * The local model runtime: a child process hosting node-llama-cpp (llama.cpp's prebuilt binary
 * from npm, never built or downloaded here), so a native crash or an out-of-memory kill takes
 * this process down and not the engine. It speaks protocol.ts over Node's IPC channel, keeps one
 * model loaded between calls, and exits when the engine disconnects.
 *
 * argv[2]: JSON `{ threads?: number, gpu: "auto" | false, useMmap?: boolean }`.
 */
import {
  getLlama,
  InsufficientMemoryError,
  LlamaLogLevel,
  NoBinaryFoundError,
  type Llama,
} from "node-llama-cpp";
import { z } from "zod";
import {
  HEARTBEAT_MS,
  toRuntime,
  type ChatCall,
  type FailureKind,
  type FromRuntime,
  type ModelLoad,
} from "../protocol.ts";
import { ContextFullError, generate } from "./generate.ts";
import { LoadedModel } from "./loaded-model.ts";

const options = z
  .object({
    threads: z.number().int().positive().optional(),
    gpu: z.enum(["auto"]).or(z.literal(false)),
    useMmap: z.boolean().optional(),
  })
  .parse(JSON.parse(process.argv[2] ?? '{"gpu":"auto"}'));

/** llama.cpp's recent log lines: a failed load says why only there ("insufficient memory…"). */
const recentLog: string[] = [];
const OUT_OF_MEMORY = /insufficient memory|failed to allocate|unable to allocate|out of memory/i;

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

class ModelLoadError extends Error {
  readonly kind: FailureKind;
  constructor(kind: FailureKind, message: string) {
    super(message);
    this.kind = kind;
  }
}

function failure(err: unknown): { kind: FailureKind; message: string } {
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof ModelLoadError) return { kind: err.kind, message };
  if (err instanceof InsufficientMemoryError) return { kind: "memory", message };
  if (err instanceof NoBinaryFoundError) return { kind: "binary", message };
  if (err instanceof ContextFullError) return { kind: "context", message };
  return { kind: "internal", message };
}

class Runtime {
  private loaded: LoadedModel | undefined;
  private lock: Promise<unknown> = Promise.resolve();
  private readonly active = new Map<number, AbortController>();
  private readonly llama: Promise<Llama>;

  constructor(llama: Promise<Llama>) {
    this.llama = llama;
  }

  /** The requested model, loaded once; another model waits for running calls, then replaces it. */
  private model(load: ModelLoad): Promise<{ loaded: LoadedModel; loadMs: number }> {
    const run = this.lock.then(async () => {
      const current = this.loaded;
      // The engine asks again with the window it was given (it may be below what it asked first).
      const same =
        current?.load.file === load.file &&
        (current.load.contextSize === load.contextSize || current.contextSize === load.contextSize);
      if (current && same) {
        return { loaded: current, loadMs: 0 };
      }
      if (current) {
        this.loaded = undefined;
        await current.idle();
        await current.dispose();
      }
      const llama = await this.llama;
      recentLog.length = 0;
      try {
        this.loaded = await LoadedModel.open(llama, load, { useMmap: options.useMmap });
      } catch (err) {
        if (err instanceof InsufficientMemoryError) throw err;
        const oom = recentLog.find((l) => OUT_OF_MEMORY.test(l));
        if (oom) throw new ModelLoadError("memory", oom.replace(/^\S+:\s*/, ""));
        throw new ModelLoadError("model", err instanceof Error ? err.message : String(err));
      }
      return { loaded: this.loaded, loadMs: this.loaded.loadMs };
    });
    this.lock = run.catch(() => undefined);
    return run;
  }

  async chat(call: ChatCall): Promise<void> {
    const controller = new AbortController();
    this.active.set(call.id, controller);
    try {
      const { loaded, loadMs } = await this.model(call.model);
      if (controller.signal.aborted) return;
      await generate(loaded, call, controller.signal, send, loadMs);
    } catch (err) {
      send({ type: "failed", id: call.id, ...failure(err) });
    } finally {
      this.active.delete(call.id);
    }
  }

  stop(id: number): void {
    this.active.get(id)?.abort();
  }
}

// The engine went away (exited, crashed, or unloaded us): nothing is left to answer. (A utility
// process ends with the app.)
process.on("disconnect", () => process.exit(0));
setInterval(() => send({ type: "heartbeat" }), HEARTBEAT_MS);

const llama = getLlama({
  build: "never",
  gpu: options.gpu,
  ...(options.threads ? { maxThreads: options.threads } : {}),
  logLevel: LlamaLogLevel.warn,
  logger: (level, message) => {
    recentLog.push(message);
    if (recentLog.length > 50) recentLog.shift();
    process.stderr.write(`[llama.cpp ${level}] ${message}\n`);
  },
});
const runtime = new Runtime(llama);
function receive(raw: unknown): void {
  const parsed = toRuntime.safeParse(raw);
  if (!parsed.success) {
    process.stderr.write(`local runtime: unreadable message: ${parsed.error.issues[0]?.message}\n`);
    process.exit(2);
  }
  const message = parsed.data;
  if (message.type === "stop") runtime.stop(message.id);
  else void runtime.chat(message);
}
if (parentPort) parentPort.on("message", (e) => receive(e.data));
else process.on("message", receive);
llama.then(
  (l) => send({ type: "ready", pid: process.pid, gpu: String(l.gpu) }),
  (err: unknown) => {
    // No binary: every call fails with the reason, and the engine stays up.
    const { kind, message } = failure(err);
    process.stderr.write(`local runtime: ${kind}: ${message}\n`);
    send({ type: "ready", pid: process.pid, gpu: "none" });
  },
);
