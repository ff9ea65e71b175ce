/**
 * The runtime process reports the llama.cpp binary it loaded, loads one handed to it without
 * node-llama-cpp's test, and falls back to finding and testing one when the handed one is gone.
 * Real runtime processes over the real channel; no model needed (`ready` is the answer).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { nodeSpawner } from "../runtime-spawn.ts";

const MAIN = fileURLToPath(new URL("./main.ts", import.meta.url));

interface Ready {
  type: "ready";
  gpu: string;
  binary?: { addon: string; metadata: string };
}

/** Starts a runtime process with these options and resolves with its `ready` message. */
async function ready(options: Record<string, unknown>): Promise<{ ready: Ready; stderr: string }> {
  const child = nodeSpawner(MAIN, [JSON.stringify({ gpu: false, threads: 1, ...options })]);
  let stderr = "";
  child.onStderr((s) => (stderr += s));
  try {
    const message = await new Promise<Ready>((resolve, reject) => {
      child.onMessage((m) => {
        if ((m as { type?: string }).type === "ready") resolve(m as Ready);
      });
      child.onExit((code) => reject(new Error(`exited with ${code}: ${stderr}`)));
    });
    return { ready: message, stderr };
  } finally {
    const exited = new Promise<void>((resolve) => child.onExit(() => resolve()));
    child.close();
    await exited;
  }
}

test("the runtime reports its binary, loads a reported one directly, and retests when it is gone", async () => {
  const first = await ready({});
  assert.equal(first.ready.gpu, "false");
  const binary = first.ready.binary;
  assert.ok(binary, "a prebuilt binary is reported for the next runtime");
  assert.match(binary.addon, /llama-addon\.node$/);
  assert.ok(existsSync(binary.addon) && existsSync(binary.metadata));

  const again = await ready({ binary });
  assert.equal(again.ready.gpu, "false");
  assert.deepEqual(again.ready.binary, binary);
  assert.doesNotMatch(again.stderr, /testing the binary again/);

  const gone = { addon: `${binary.addon}.gone`, metadata: binary.metadata };
  const fallback = await ready({ binary: gone });
  assert.equal(fallback.ready.gpu, "false", "found and tested again");
  assert.match(fallback.stderr, /testing the binary again/);
  assert.deepEqual(fallback.ready.binary, binary, "and the working one is reported");
});
