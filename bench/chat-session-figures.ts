/** `npm run bench` figures of bench/chat-session-bench.ts; none (and why, on stderr) without Chromium or a built UI. */
import { existsSync } from "node:fs";
import { BUILT_PAGE } from "../e2e/support/browser.ts";
import { skipChat } from "../e2e/support/chat.ts";
import { benchSessionRender, MESSAGES } from "./chat-session-bench.ts";
import type { Figure } from "./figure.ts";

export async function chatSessionFigures(): Promise<Figure[]> {
  const missing = skipChat || (existsSync(BUILT_PAGE) ? false : "no built UI (npm run build)");
  if (missing) {
    process.stderr.write(`bench: chat session skipped: ${missing}\n`);
    return [];
  }
  const r = await benchSessionRender();
  const round = (n: number) => Math.round(n * 10) / 10;
  const size = `${MESSAGES.toLocaleString("en")}-message session (${r.turns} turns)`;
  const k = (px: number) => `${Math.round(px / 1000).toLocaleString("en")}k px`;
  return [
    {
      name: `chat open, ${size}, click → last turn painted`,
      value: round(r.openMs),
      unit: "ms (median)",
      baseline: {
        name: "chat/open + chat/history round trip, bare WebSocket + JSON.parse",
        value: round(r.roundTripMs),
        unit: "ms",
      },
      ratio: round(r.openMs / r.roundTripMs),
    },
    {
      name: "first chat opened after islet serve started (loads the engine's modules)",
      value: round(r.firstOpenMs),
      unit: "ms (once)",
    },
    {
      name: `chat scroll, ${size}, a wheel at 6k px/s for 5 s from the bottom (${r.wheel.longTasks} long tasks), p95 frame`,
      value: round(r.wheel.p95),
      unit: "ms",
      baseline: { name: "the idle page, p95 frame", value: round(r.idle.p95), unit: "ms" },
      ratio: round(r.wheel.p95 / r.idle.p95),
    },
    {
      name: `chat scroll, ${size}, dragged on to the top (${k(r.scroll.heightPx)} at ${k(r.scroll.pxPerSecond)}/s, ${r.scroll.longTasks} long tasks), p95 frame`,
      value: round(r.scroll.p95),
      unit: "ms",
      baseline: { name: "the idle page, p95 frame", value: round(r.idle.p95), unit: "ms" },
      ratio: round(r.scroll.p95 / r.idle.p95),
    },
  ];
}
