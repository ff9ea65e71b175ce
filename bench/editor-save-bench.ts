/**
 * The plugin editor's loop (save → the next turn uses the new code, goal < 150 ms p95),
 * against a real `islet serve` over the bridge's WebSocket, the transport the editor page uses:
 * from `editor/write` of a changed beforeChat until the loopback model receives a request that
 * carries the new code's text. Baseline, same run and server: a turn with no save, from
 * `chat/send` until its request arrives (what the loop costs without the reload).
 *
 * Run alone: node --no-node-snapshot bench/editor-save-bench.ts
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { startServe } from "../e2e/support/browser.ts";
import { connectBridgeSocket } from "../e2e/support/bridge-client.ts";
import { startFakeOpenAI, type FakeServer } from "../main/providers/testing/index.ts";
import type { Figure } from "./figure.ts";

const RUNS = 20;

const plugin = (word: string) => `export function beforeChat() {
  return { request: { appendSystem: "Say ${word}." } };
}
`;

/** Resolves with the time at which the model has received a request containing `marker`. */
async function requestWith(model: FakeServer, marker: string, from: number): Promise<number> {
  for (;;) {
    for (const r of model.chatRequests.slice(from))
      if (r.raw.includes(marker)) return performance.now();
    await new Promise((r) => setImmediate(r));
  }
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

export async function benchEditorSave(): Promise<{ p95: number; p50: number; baseP95: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-bench-editor-"));
  const home = path.join(dir, "home");
  const work = path.join(dir, "work");
  await mkdir(path.join(home, "plugins", "greeter"), { recursive: true });
  await mkdir(work, { recursive: true });
  await writeFile(path.join(home, "plugins", "greeter", "plugin.yaml"), 'description: "bench"\n');
  await writeFile(path.join(home, "plugins", "greeter", "index.ts"), plugin("hello"));
  const model = await startFakeOpenAI([]);
  const serve = await startServe([
    ...["--home", home, "--workdir", work],
    ...["--provider", "openai-compatible", "--base-url", model.url, "--model", "fake"],
  ]);
  const bridge = await connectBridgeSocket(serve.url);
  try {
    const { conversationId } = (await bridge.call("chat/open", {})) as { conversationId: string };
    const turn = (text: string) => {
      model.push({ text: ["ok"] });
      return bridge.stream("chat/send", { conversationId, text });
    };
    const saves: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < RUNS + 2; i++) {
      // A turn without a save: the baseline.
      let from = model.chatRequests.length;
      let start = performance.now();
      const marker = `plain-${i}`;
      let done = turn(marker);
      const plainMs = (await requestWith(model, marker, from)) - start;
      await done;
      // Save a changed plugin, then the next turn: until its request carries the new text.
      const word = `word${i}`;
      from = model.chatRequests.length;
      start = performance.now();
      await bridge.call("editor/write", {
        name: "greeter",
        path: "index.ts",
        content: plugin(word),
      });
      done = turn(`after ${word}`);
      const saveMs = (await requestWith(model, `Say ${word}.`, from)) - start;
      await done;
      // The first two warm the bundler and the JIT up.
      if (i >= 2) {
        plain.push(plainMs);
        saves.push(saveMs);
      }
    }
    return {
      p95: quantile(saves, 0.95),
      p50: quantile(saves, 0.5),
      baseP95: quantile(plain, 0.95),
    };
  } finally {
    bridge.close();
    await serve.stop();
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function editorSaveFigures(): Promise<Figure[]> {
  const r = await benchEditorSave();
  const round = (n: number) => Math.round(n * 10) / 10;
  return [
    {
      name: `editor save → next turn uses the new code (p50 ${round(r.p50)} ms), p95`,
      value: round(r.p95),
      unit: "ms",
      baseline: {
        name: "a turn without a save, until its request, p95",
        value: round(r.baseP95),
        unit: "ms",
      },
      ratio: round(r.p95 / r.baseP95),
    },
  ];
}

if (import.meta.main) console.log(JSON.stringify(await editorSaveFigures(), null, 2));
