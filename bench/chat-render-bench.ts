/**
 * The chat renderer in Chromium against `islet serve`: frame intervals while a 10,000-token
 * answer streams at about 500 tokens/s (a loopback model pausing 2 ms per token). A frame that
 * takes longer than the display's refresh (16.7 ms at 60 Hz) shows as a longer interval.
 * Needs `npm run build` and Chromium.
 *
 * Run alone: node --no-node-snapshot bench/chat-render-bench.ts
 */
import "../e2e/support/use-serve-target.ts";
import { existsSync } from "node:fs";
import { BUILT_PAGE } from "../e2e/support/browser.ts";
import { skipChat, startChatRig } from "../e2e/support/chat.ts";
import type { Figure } from "./figure.ts";

const TOKENS = 10_000;

export async function benchChatStreaming(): Promise<{
  p95: number;
  p50: number;
  max: number;
  frames: number;
  tokensPerSecond: number;
}> {
  const rig = await startChatRig();
  try {
    const { page, model } = rig;
    // Words, sentences and paragraphs, with a code block now and then: what a model writes.
    const words = ["The ", "parser ", "reads ", "each ", "line ", "and ", "keeps ", "state. "];
    const text = Array.from({ length: TOKENS }, (_, i) =>
      i % 400 === 399
        ? "\n\n```ts\nconst x = parse(line);\n```\n\n"
        : i % 60 === 59
          ? "\n\n"
          : words[i % words.length],
    );
    model.push({ text, pauseMs: 2 });
    await page.evaluate(() => {
      const w = window as unknown as { frames_: number[] };
      w.frames_ = [];
      let last = performance.now();
      const tick = (now: number) => {
        w.frames_.push(now - last);
        last = now;
        requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const started = Date.now();
    await rig.composer().fill("Write a lot");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 120_000 });
    const seconds = (Date.now() - started) / 1000;
    const frames = await page.evaluate(() => (window as unknown as { frames_: number[] }).frames_);
    const sorted = frames.slice(5).sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
    return {
      p95: at(0.95),
      p50: at(0.5),
      max: sorted.at(-1) ?? 0,
      frames: sorted.length,
      tokensPerSecond: TOKENS / seconds,
    };
  } finally {
    await rig.close();
  }
}

/** The figures for `npm run bench`; none (and why, on stderr) without Chromium or a built UI. */
export async function chatRenderFigures(): Promise<Figure[]> {
  const missing = skipChat || (existsSync(BUILT_PAGE) ? false : "no built UI (npm run build)");
  if (missing) {
    process.stderr.write(`bench: chat renderer skipped: ${missing}\n`);
    return [];
  }
  const r = await benchChatStreaming();
  const round = (n: number) => Math.round(n * 10) / 10;
  return [
    {
      name: `chat streaming ${TOKENS.toLocaleString("en")} tokens (${Math.round(r.tokensPerSecond)} tokens/s), p95 frame`,
      value: round(r.p95),
      unit: "ms",
      baseline: { name: "median frame (the display's refresh)", value: round(r.p50), unit: "ms" },
      ratio: round(r.p95 / r.p50),
    },
  ];
}

if (import.meta.main) console.log(await benchChatStreaming());
