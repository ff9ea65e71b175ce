/**
 * Provider kind `local`: GGUF models under `<global home>/models/`, run by llama.cpp in the local
 * runtime process (runtime-process.ts). Its stream keeps every provider's rules (types.ts):
 * deltas, complete tool calls, then usage and done; failures are one-line ProviderErrors; Stop
 * ends the call at once (the runtime stops generating on its own time).
 */
import type { Message } from "../../core/message.ts";
import type { ModelInfo } from "../../core/types.ts";
import { LOCAL_TIMEOUTS, resolveTimeouts, type Timeouts } from "../timeouts.ts";
import {
  ProviderError,
  type ChatRequest,
  type ModelSummary,
  type Provider,
  type StreamEvent,
} from "../types.ts";
import { totalmem } from "node:os";
import { LocalDecoder } from "./decode.ts";
import {
  findModelFile,
  fitContextSize,
  memoryShortfall,
  modelFilesIn,
  ModelFileError,
  readGgufInfo,
  type GgufInfo,
} from "../../models/index.ts";
import type { LoadedInfo, TurnStats, WireMessage } from "./protocol.ts";
import { localError } from "./provider-errors.ts";
import { RawCalls } from "./raw-calls.ts";
import { RuntimeFailure } from "./runtime-failure.ts";
import type { LocalRuntime, LocalRuntimeOptions } from "./runtime-process.ts";
import { sharedRuntime } from "./shared-runtime.ts";

export interface LocalProviderOptions {
  name?: string;
  /** The folder holding the GGUF files (`<global home>/models`). */
  modelsDir: string;
  /** providers.yaml context_length: the most the model gets (fitted to memory below it). */
  contextLength?: number;
  /** "text": Islet's text protocol (grammar-constrained) even where the template has tools. */
  toolSyntax?: "auto" | "text";
  timeouts?: Partial<Timeouts>;
  /** Default: the engine's one shared runtime, with these options. */
  runtime?: LocalRuntime;
  runtimeOptions?: LocalRuntimeOptions;
  /** The machine's memory in bytes (default: os.totalmem()). */
  machineMemory?: number;
  /** Called after every finished call (tests and benchmarks read the cache figures). */
  onStats?: (stats: TurnStats, info: LoadedInfo) => void;
}

type Header = GgufInfo & { file: string };

export class LocalProvider implements Provider {
  readonly name: string;
  readonly kind = "local" as const;
  readonly baseUrl: string;
  private readonly opts: LocalProviderOptions;
  private readonly timeouts: Timeouts;
  private readonly headers = new Map<string, Promise<Header>>();
  /** The window the runtime actually created, per file (it may fit below the estimate). */
  private readonly windows = new Map<string, number>();
  private readonly raw = new RawCalls();

  constructor(opts: LocalProviderOptions) {
    this.opts = opts;
    this.name = opts.name ?? "local";
    this.baseUrl = opts.modelsDir;
    this.timeouts = resolveTimeouts("http://127.0.0.1", { ...LOCAL_TIMEOUTS, ...opts.timeouts });
  }

  private get runtime(): LocalRuntime {
    return this.opts.runtime ?? sharedRuntime(this.opts.runtimeOptions);
  }

  /** The model's file and header, or a one-line model_unavailable error. */
  private header(model: string): Promise<Header> {
    let hit = this.headers.get(model);
    if (!hit) {
      hit = (async () => {
        const file = await findModelFile(this.opts.modelsDir, model);
        if (!file) {
          throw new ProviderError(
            `${this.name}: model "${model}" is not in ${this.opts.modelsDir} — download it with \`islet models pull ${model}\` (\`islet models list\` shows what is there)`,
            "model_unavailable",
            0,
            undefined,
            { remedy: "get_model" },
          );
        }
        try {
          return { ...(await readGgufInfo(file)), file };
        } catch (err) {
          // The model manager's line already names the file and says what to do.
          if (err instanceof ModelFileError)
            throw new ProviderError(`${this.name}: ${err.message}`, "model_unavailable");
          throw new ProviderError(
            `${this.name}: ${file} is not a readable GGUF model (${err instanceof Error ? err.message : String(err)}) — download it again`,
            "model_unavailable",
            0,
            undefined,
            { cause: err },
          );
        }
      })();
      hit.catch(() => this.headers.delete(model));
      this.headers.set(model, hit);
    }
    return hit;
  }

  private contextSize(h: Header): number {
    return (
      this.windows.get(h.file) ??
      fitContextSize(h, this.opts.contextLength, this.opts.machineMemory ?? totalmem())
    );
  }

  chat(req: ChatRequest): AsyncGenerator<StreamEvent> {
    return this.stream(req);
  }

  private async *stream(req: ChatRequest): AsyncGenerator<StreamEvent> {
    const h = await this.header(req.model);
    const memory = this.opts.machineMemory ?? totalmem();
    const need = memoryShortfall(h, memory);
    if (need !== undefined) {
      throw new ProviderError(
        `${this.name}: ${req.model} needs about ${gib(need)} of memory and this machine has ${gib(memory)} — pick a smaller model (\`islet models list\`)`,
        "",
      );
    }
    let loaded: LoadedInfo | undefined;
    const decoder = new LocalDecoder(
      req.tools.map((t) => t.name),
      {
        started: (info) => {
          loaded = info;
          this.windows.set(h.file, info.contextSize);
        },
        raw: (id, raw) => this.raw.set(id, raw),
      },
    );
    const events = this.runtime.chat(
      {
        model: { file: h.file, contextSize: this.contextSize(h) },
        system: req.system,
        messages: req.messages.map((m) => this.wire(m)),
        tools: req.tools.map((t) => ({
          name: t.name,
          description: t.description,
          parameters: t.parameters,
        })),
        toolSyntax: this.opts.toolSyntax ?? "auto",
        ...(req.thinking ? { thinking: req.thinking } : {}),
        ...(req.maxTokens !== undefined ? { maxTokens: req.maxTokens } : {}),
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
      },
      { firstTokenMs: this.timeouts.firstTokenMs, idleMs: this.timeouts.idleMs },
      req.signal,
    );
    const out: StreamEvent[] = [];
    try {
      for await (const ev of events) {
        if (ev.type === "done" && loaded) this.opts.onStats?.(ev.stats, loaded);
        const done = decoder.push(ev, out);
        yield* out.splice(0);
        if (done) return;
        if (decoder.stopped) {
          // Leaving the loop stops the runtime's generation.
          decoder.finish(out, 0, 0, "stop");
          yield* out.splice(0);
          return;
        }
      }
    } catch (err) {
      if (err instanceof RuntimeFailure) {
        throw localError(err, { provider: this.name, model: req.model, file: h.file });
      }
      throw err;
    }
  }

  private wire(m: Message): WireMessage {
    const w: WireMessage = { role: m.role, content: m.content };
    if (m.thinking) w.thinking = m.thinking;
    if (m.toolCalls?.length) {
      w.toolCalls = m.toolCalls.map((c) => {
        const raw = this.raw.get(c.id);
        return {
          id: c.id,
          name: c.name,
          arguments: c.arguments,
          ...(raw !== undefined ? { raw } : {}),
        };
      });
    }
    if (m.toolCallId !== undefined) w.toolCallId = m.toolCallId;
    if (m.toolName !== undefined) w.toolName = m.toolName;
    if (m.isError) w.isError = true;
    return w;
  }

  async listModels(): Promise<ModelSummary[]> {
    return (await modelFilesIn(this.opts.modelsDir)).map((m) => ({ name: m.name, size: m.size }));
  }

  /** What the engine asks when it resolves the model, before the first call: the runtime starts then. */
  async modelInfo(model: string): Promise<ModelInfo> {
    const h = await this.header(model);
    const memory = this.opts.machineMemory ?? totalmem();
    if (memoryShortfall(h, memory) === undefined) this.runtime.prestart();
    const capabilities = ["completion", "tools"];
    if (h.thinking) capabilities.push("thinking");
    return {
      name: model,
      family: h.architecture,
      parameterCount: h.parameterCount,
      contextLength: this.contextSize(h),
      capabilities,
    };
  }
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GB`;
}
