/**
 * What a user sees when the local runtime fails: a native crash (kill -9 mid-answer), a hang
 * (the process frozen with SIGSTOP), out of memory, and the idle unload. Each failure is one line
 * and the next call starts a fresh process.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { totalmem } from "node:os";
import path from "node:path";
import { makeMessage } from "../../core/message.ts";
import { ProviderError, type ChatRequest, type StreamEvent } from "../types.ts";
import { LocalProvider, type LocalProviderOptions } from "./provider.ts";
import { LocalRuntime, type LocalRuntimeOptions } from "./runtime-process.ts";
import { TEST_RUNTIME, writeTestModels, type ModelsFolder } from "./testing/models.ts";
import { writeTinyGguf } from "./testing/tiny-gguf.ts";

const OVERCOMMIT_REFUSES =
  process.platform === "linux" &&
  (await readFile("/proc/sys/vm/overcommit_memory", "utf8").catch(() => "1")).trim() !== "1";

function request(model: string, extra: Partial<ChatRequest> = {}): ChatRequest {
  return {
    model,
    system: "",
    messages: [makeMessage("user", "Hello world")],
    tools: [],
    maxTokens: 100_000,
    ...extra,
  };
}

/** Reads the stream, calling `onText` at the first text event; returns the events. */
async function drain(
  provider: LocalProvider,
  req: ChatRequest,
  onText?: () => void,
): Promise<StreamEvent[]> {
  const out: StreamEvent[] = [];
  for await (const ev of provider.chat(req)) {
    if (ev.type === "text" && onText && !out.some((e) => e.type === "text")) onText();
    out.push(ev);
  }
  return out;
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

async function waitFor(check: () => boolean, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

describe("local runtime failures", () => {
  let models: ModelsFolder;
  const runtimes: LocalRuntime[] = [];
  const make = (
    runtimeOpts: LocalRuntimeOptions = {},
    providerOpts: Partial<LocalProviderOptions> = {},
  ) => {
    const runtime = new LocalRuntime({ ...TEST_RUNTIME, ...runtimeOpts });
    runtimes.push(runtime);
    const provider = new LocalProvider({ modelsDir: models.dir, runtime, ...providerOpts });
    return { runtime, provider };
  };

  before(async () => {
    models = await writeTestModels(["endless"]);
  });
  after(async () => {
    for (const r of runtimes) await r.unload();
    await models.remove();
  });

  it("kill -9 mid-answer: one error line, the engine's process is fine, the next call works", async () => {
    const { runtime, provider } = make();
    const pid = runtime.pid;
    let killed = 0;
    await assert.rejects(
      drain(provider, request("endless"), () => {
        killed = runtime.pid!;
        process.kill(killed, "SIGKILL");
      }),
      (err) => {
        assert.ok(err instanceof ProviderError);
        assert.equal(
          err.message,
          "local: the model runtime stopped while answering: it was killed (SIGKILL: out of memory, or stopped by another program) — send the message again to start it fresh",
        );
        assert.equal(err.retryable, false, "a crash ends the turn; the next turn starts fresh");
        return true;
      },
    );
    assert.equal(pid, undefined, "no runtime before the first call");
    assert.ok(killed > 0);
    const next = await drain(provider, request("endless", { maxTokens: 5 }));
    assert.deepEqual(next.at(-1), { type: "done", stopReason: "length" });
    assert.ok(runtime.pid && runtime.pid !== killed, "a fresh process");
  });

  it("a hung runtime (no heartbeat) is stopped by the watchdog: one line, then a fresh process", async () => {
    const { runtime, provider } = make({ hangMs: 1500 });
    await drain(provider, request("endless", { maxTokens: 3 })); // started and loaded
    const frozen = runtime.pid!;
    const started = performance.now();
    await assert.rejects(
      drain(provider, request("endless"), () => process.kill(frozen, "SIGSTOP")),
      (err) => {
        assert.ok(err instanceof ProviderError);
        assert.match(
          err.message,
          /^local: the model runtime hung \(it stopped responding for \d+ s\) and was stopped — send the message again to start it fresh$/,
        );
        return true;
      },
    );
    assert.ok(performance.now() - started < 15_000);
    assert.ok(await waitFor(() => gone(frozen), 5000), "the frozen process was killed");
    const next = await drain(provider, request("endless", { maxTokens: 3 }));
    assert.deepEqual(next.at(-1), { type: "done", stopReason: "length" });
    assert.notEqual(runtime.pid, frozen);
  });

  it("a generation past its idle limit is stopped the same way, naming the setting", async () => {
    const { runtime, provider } = make({}, { timeouts: { idleMs: 800 } });
    await drain(provider, request("endless", { maxTokens: 3 }));
    const pid = runtime.pid!;
    // Frozen between tokens, heartbeats included: the idle limit fires before the hang limit.
    await assert.rejects(
      drain(provider, request("endless"), () => process.kill(pid, "SIGSTOP")),
      /^ProviderError: local: the answer from endless stalled for 0\.8 s \(idle timeout\); the runtime was stopped — raise providers\.local\.timeouts\.idle in providers\.yaml if the model pauses longer$/,
    );
    assert.ok(await waitFor(() => gone(pid), 5000));
  });

  it("unloads the model (stops the process) after the idle time, and loads it again on use", async () => {
    const { runtime, provider } = make({ unloadAfterMs: 300 });
    await drain(provider, request("endless", { maxTokens: 3 }));
    const pid = runtime.pid!;
    assert.ok(await waitFor(() => gone(pid), 5000), "the process exits once idle");
    assert.equal(runtime.pid, undefined);
    await drain(provider, request("endless", { maxTokens: 3 }));
    assert.ok(runtime.pid && runtime.pid !== pid);
  });

  it("a model larger than the machine is refused before loading, in one line", async () => {
    const huge = path.join(models.dir, "huge.gguf");
    // A sparse file: its header describes about twice this machine's memory.
    const width = 4096;
    const layers = Math.ceil((2 * totalmem()) / (width * width * 4 * 7));
    await writeTinyGguf(huge, { width, layers, heads: 32, sparse: true });
    const { runtime, provider } = make();
    await assert.rejects(drain(provider, request("huge")), (err) => {
      assert.ok(err instanceof ProviderError);
      assert.match(
        err.message,
        /^local: huge needs about \d+\.\d GB of memory and this machine has \d+\.\d GB — pick a smaller model \(`islet models list`\)$/,
      );
      return true;
    });
    assert.equal(runtime.pid, undefined, "nothing was started for it");
  });

  it(
    "out of memory while loading is one line from the runtime, which stays up for the next call",
    {
      // Linux's default overcommit refuses an allocation beyond memory at once; elsewhere it
      // could be granted and then fill the machine.
      skip: !OVERCOMMIT_REFUSES && "needs Linux with vm.overcommit_memory 0 or 2",
    },
    async () => {
      const huge = path.join(models.dir, "huge.gguf");
      const width = 4096;
      const layers = Math.ceil((2 * totalmem()) / (width * width * 4 * 7));
      await writeTinyGguf(huge, { width, layers, heads: 32, sparse: true });
      // No mmap: llama.cpp allocates the weights; the machine's memory is not checked up front.
      const { runtime, provider } = make({ useMmap: false }, { machineMemory: 2 ** 50 });
      await assert.rejects(drain(provider, request("huge")), (err) => {
        assert.ok(err instanceof ProviderError);
        assert.match(
          err.message,
          /^local: not enough memory for huge: .*insufficient memory.* — pick a smaller model, or set a smaller context_length for local in providers\.yaml$/,
        );
        return true;
      });
      const pid = runtime.pid;
      const next = await drain(provider, request("endless", { maxTokens: 3 }));
      assert.deepEqual(next.at(-1), { type: "done", stopReason: "length" });
      assert.equal(runtime.pid, pid, "the same process");
    },
  );
});
