/**
 * A long saved session in the chat renderer, in Chromium against `islet serve`:
 * - open: a 2,000-message session (bench/session-fixture.ts, written as the engine writes it) is
 *   clicked in the sessions column; the time until its last turn is on screen and painted.
 *   Each run opens a copy no window has open yet (the server reads its file, as for a session
 *   clicked for the first time), in a page already warm; the very first open after the server
 *   started (it also loads the engine's modules) is reported apart.
 *   Baseline, same page and run: the `chat/open` + `chat/history` round trip alone for the same
 *   copy, on a bare WebSocket with only `JSON.parse` (the ratio is what checking the frame,
 *   folding the events and drawing add).
 * - scroll: from the bottom, first at a brisk wheel's speed (6,000 px/s) for 5 s, then the rest
 *   of the way to the top in ~8 s (a scrollbar drag: every frame shows turns not drawn yet),
 *   both at a steady speed (scrollTop per frame), frame intervals and long tasks recorded;
 *   baseline: the idle page's frame intervals.
 * Needs `npm run build` and Chromium. Run alone: node --no-node-snapshot bench/chat-session-bench.ts
 */
import "../e2e/support/use-serve-target.ts";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { startChatRig } from "../e2e/support/chat.ts";
import { SessionStore } from "../main/sessions/store.ts";
import {
  type FrameStats,
  frameStats,
  idleFrames,
  openInPage,
  roundTripInPage,
  scrollInPage,
} from "./page-timing.ts";
import { realisticMessages, writeSession } from "./session-fixture.ts";

export const MESSAGES = 2_000;
const OPEN_RUNS = 5;
/** In the last answer, so its turn on screen is unmistakable. */
const MARKER = "bench-last-turn-7f3a";
/** Time for the server to close the conversation the bare socket left. */
const CLOSE_MS = 300;
/** The wheel: 100 px a frame (6,000 px/s at 60 Hz) for 300 frames. */
const WHEEL_PX = 100;
const WHEEL_FRAMES = 300;
/** The drag covers what is left in about this many frames (~8 s at 60 Hz). */
const DRAG_FRAMES = 480;

export interface SessionRenderResult {
  messages: number;
  turns: number;
  /** Median click → last turn painted; the same for the server's first conversation. */
  openMs: number;
  firstOpenMs: number;
  /** Median click → the first frame with the history's turns in the DOM. */
  firstTurnMs: number;
  roundTripMs: number;
  wheel: FrameStats & { longTasks: number };
  scroll: FrameStats & {
    pxPerSecond: number;
    /** The transcript's height once scrolled through, and as first laid out (mostly estimates). */
    heightPx: number;
    estimatedPx: number;
    longTasks: number;
    longTaskMs: number;
  };
  idle: FrameStats;
}

/** `copies` sessions with the same 2,000 messages, as home-relative paths and texts. */
async function sessionFiles(
  copies: number,
): Promise<{ ids: string[]; files: Record<string, string>; turns: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-bench-chat-session-"));
  const store = SessionStore.forHome(dir, { appVersion: "bench" });
  try {
    const messages = realisticMessages(MESSAGES, 11);
    const last = messages[messages.length - 1];
    messages[messages.length - 1] = { ...last, content: `${last.content}\n\nDone: \`${MARKER}\`.` };
    const ids: string[] = [];
    const files: Record<string, string> = {};
    for (let copy = 0; copy < copies; copy++) {
      const id = await store.create({
        workdir: "/work/proj",
        agent: "coder",
        provider: "openai-compatible",
        model: "fake-model",
        title: `Benchmark ${copy + 1}: ${MESSAGES.toLocaleString("en")} messages`,
      });
      await writeSession(store, id, messages, { turnEnds: true });
      const file = store.fileOf(id);
      ids.push(id);
      files[path.relative(dir, file)] = await readFile(file, "utf8");
    }
    return { ids, files, turns: messages.filter((m) => m.role === "user").length };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** "New chat": the transcript is empty again, ready for the next open. */
async function leave(page: Page): Promise<void> {
  await page.getByRole("button", { name: "New chat" }).click();
  await page.locator(".chat-empty h2").waitFor();
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function benchSessionRender(): Promise<SessionRenderResult> {
  const sessions = await sessionFiles(OPEN_RUNS + 1);
  const rig = await startChatRig({ homeFiles: sessions.files });
  try {
    const { page } = rig;
    const [first, ...rest] = sessions.ids;
    await page.locator(`button[data-session-id="${first}"]`).waitFor({ timeout: 20_000 });
    const firstOpenMs = (await openInPage(page, first, MARKER)).ms;
    const opens: number[] = [];
    const firstTurns: number[] = [];
    const trips: number[] = [];
    for (const id of rest) {
      await leave(page);
      trips.push(await roundTripInPage(page, id));
      await pause(CLOSE_MS);
      const opened = await openInPage(page, id, MARKER);
      opens.push(opened.ms);
      firstTurns.push(opened.firstTurnMs);
    }
    // At the bottom of the open session: first the idle page, then the scroll to the top.
    const idle = frameStats(await page.evaluate(idleFrames, 150));
    const height = await page.locator(".transcript").evaluate((el) => el.scrollHeight);
    const wheel = await scrollInPage(page, WHEEL_PX, WHEEL_FRAMES);
    const left = await page.locator(".transcript").evaluate((el) => el.scrollTop);
    const pxPerFrame = Math.max(WHEEL_PX, Math.ceil(left / DRAG_FRAMES));
    const scrolled = await scrollInPage(page, pxPerFrame, DRAG_FRAMES * 3);
    if (scrolled.top > 0) throw new Error(`the scroll stopped ${scrolled.top} px from the top`);
    return {
      messages: MESSAGES,
      turns: sessions.turns,
      openMs: median(opens),
      firstOpenMs,
      firstTurnMs: median(firstTurns),
      roundTripMs: median(trips),
      wheel: { ...frameStats(wheel.frames), longTasks: wheel.longTasks.length },
      scroll: {
        ...frameStats(scrolled.frames),
        pxPerSecond: Math.round(pxPerFrame * 60),
        heightPx: scrolled.height,
        estimatedPx: height,
        longTasks: scrolled.longTasks.length,
        longTaskMs: scrolled.longTasks.reduce((a, b) => a + b, 0),
      },
      idle,
    };
  } finally {
    await rig.close();
  }
}

if (import.meta.main) console.log(await benchSessionRender());
