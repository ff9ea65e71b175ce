/**
 * The utility-process adapter (utility-runtime-child.ts) under the real LocalRuntime and the real
 * runtime process, without the Electron binary: Electron's UtilityProcess is stood in for by
 * Node's fork behind the same surface (postMessage, "message", "exit" with a code only,
 * stderr, kill). What runs for real: the adapter, the engine's side of the runtime (the typed
 * channel, failures, restarts) and the runtime process (its Node IPC path, not parentPort).
 */
import assert from "node:assert/strict";
import { fork, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { after, before, describe, it } from "node:test";
import { makeMessage } from "../core/message.ts";
import { LocalProvider } from "../providers/local/provider.ts";
import { LocalRuntime } from "../providers/local/runtime-process.ts";
import {
  nodeSpawner,
  setRuntimeSpawner,
  type RuntimeChild,
} from "../providers/local/runtime-spawn.ts";
import {
  TEST_RUNTIME,
  writeTestModels,
  type ModelsFolder,
} from "../providers/local/testing/models.ts";
import { ProviderError, type ChatRequest, type StreamEvent } from "../providers/types.ts";
import { runtimeChildOf, type UtilityChild } from "./utility-runtime-child.ts";

/** Node's fork with Electron's UtilityProcess surface: an exit reports a code, never a signal. */
class ForkedUtility extends EventEmitter implements UtilityChild {
  readonly #child: ChildProcess;
  constructor(script: string, args: string[]) {
    super();
    this.#child = fork(script, args, {
      execArgv: [],
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "json",
    });
    this.#child.on("message", (m) => this.emit("message", m));
    this.#child.on("exit", (code, signal) => this.emit("exit", code ?? (signal ? 137 : 0)));
  }
  get pid(): number | undefined {
    return this.#child.pid;
  }
  get stderr(): NodeJS.ReadableStream | null {
    return this.#child.stderr;
  }
  postMessage(message: unknown): void {
    this.#child.send(message as object);
  }
  kill(): boolean {
    return this.#child.kill("SIGTERM");
  }
}

describe("local runtime in a utility process (adapter)", () => {
  let models: ModelsFolder;
  const children: RuntimeChild[] = [];
  before(async () => {
    models = await writeTestModels(["endless"]);
    setRuntimeSpawner((script, args) => {
      const c = runtimeChildOf(new ForkedUtility(script, args));
      children.push(c);
      return c;
    });
  });
  after(async () => {
    setRuntimeSpawner(nodeSpawner);
    await models.remove();
  });

  const request = (maxTokens: number, signal?: AbortSignal): ChatRequest => ({
    model: "endless",
    system: "",
    messages: [makeMessage("user", "Hello")],
    tools: [],
    maxTokens,
    ...(signal ? { signal } : {}),
  });

  async function drain(p: LocalProvider, req: ChatRequest, onText?: () => void) {
    const out: StreamEvent[] = [];
    for await (const e of p.chat(req)) {
      out.push(e);
      if (e.type === "text") onText?.();
    }
    return out;
  }

  it("answers through the adapter, reports a killed process in one line, starts a fresh one, and closes it", async () => {
    const runtime = new LocalRuntime(TEST_RUNTIME);
    const provider = new LocalProvider({ modelsDir: models.dir, runtime });
    try {
      const first = await drain(provider, request(5));
      assert.deepEqual(first.at(-1), { type: "done", stopReason: "length" });
      assert.equal(runtime.pid, children[0].pid, "the process the adapter started");

      let killed = 0;
      await assert.rejects(
        drain(provider, request(500), () => {
          if (killed) return;
          killed = children[0].pid!;
          process.kill(killed, "SIGKILL");
        }),
        (err) => {
          assert.ok(err instanceof ProviderError);
          assert.match(
            err.message,
            /^local: the model runtime stopped while answering: it exited with code 137.* — send the message again to start it fresh$/,
          );
          return true;
        },
      );
      assert.equal(children[0].connected, false);
      children[0].send({ type: "stop", id: 1 }); // after its exit: nothing happens, nothing throws

      const again = await drain(provider, request(5));
      assert.deepEqual(again.at(-1), { type: "done", stopReason: "length" });
      assert.equal(children.length, 2, "a fresh process");
      assert.equal(runtime.pid, children[1].pid);

      // Unloading asks the process to end (the utility process's kill) and waits for its exit.
      await runtime.unload();
      assert.equal(children[1].connected, false);
      assert.equal(runtime.pid, undefined);
    } finally {
      await runtime.unload();
    }
  });
});
