/**
 * Timings taken inside the chat page (so Playwright's own round trips are not in them): opening
 * a session from the sessions column, the bridge round trip alone, a steady scroll. The
 * functions given to `page.evaluate` run in Chromium and may use only what they are passed.
 */
import type { Page } from "playwright-core";

export interface FrameStats {
  p50: number;
  p95: number;
  max: number;
  frames: number;
}

export function frameStats(frames: number[]): FrameStats {
  const sorted = [...frames].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  return { p50: at(0.5), p95: at(0.95), max: sorted.at(-1) ?? 0, frames: sorted.length };
}

/**
 * Clicks the session's row and resolves with the ms until an element of the transcript showing
 * `marker` (in its last turn) is inside the transcript's visible box, after that frame painted;
 * and until the first frame with any turn in the DOM (the history arrived and was drawn once).
 */
export function openInPage(
  page: Page,
  sessionId: string,
  marker: string,
): Promise<{ ms: number; firstTurnMs: number }> {
  return page.evaluate(
    ({ sessionId, marker }) =>
      new Promise<{ ms: number; firstTurnMs: number }>((resolve, reject) => {
        const row = document.querySelector<HTMLButtonElement>(
          `button[data-session-id="${sessionId}"]`,
        );
        if (!row) return reject(new Error(`no row for session ${sessionId}`));
        const shown = (): boolean => {
          const box = document.querySelector(".transcript")?.getBoundingClientRect();
          if (!box) return false;
          for (const code of document.querySelectorAll(".transcript code")) {
            if (code.textContent !== marker) continue;
            const r = code.getBoundingClientRect();
            if (r.height > 0 && r.top >= box.top && r.bottom <= box.bottom) return true;
          }
          return false;
        };
        const deadline = performance.now() + 30_000;
        const t0 = performance.now();
        let firstTurnMs = 0;
        row.click();
        const check = () => {
          if (firstTurnMs === 0 && document.querySelector(".transcript-row"))
            firstTurnMs = performance.now() - t0;
          // Checked at the start of a frame: a timer queued now runs once that frame is painted.
          if (shown()) setTimeout(() => resolve({ ms: performance.now() - t0, firstTurnMs }), 0);
          else if (performance.now() > deadline)
            reject(new Error("the last turn did not show within 30 s"));
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    { sessionId, marker },
  );
}

/** `chat/open` + `chat/history` for the session on a bare WebSocket (JSON.parse only), in ms. */
export function roundTripInPage(page: Page, sessionId: string): Promise<number> {
  return page.evaluate(
    (sessionId) =>
      new Promise<number>((resolve, reject) => {
        const token = new URLSearchParams(location.search).get("token") ?? "";
        const socket = new WebSocket(
          `ws://${location.host}/bridge?token=${encodeURIComponent(token)}`,
        );
        let t0 = 0;
        const send = (id: number, call: string, payload: unknown) =>
          socket.send(JSON.stringify({ id, call, payload }));
        socket.onerror = () => reject(new Error("bench socket failed"));
        socket.onopen = () => {
          t0 = performance.now();
          send(1, "chat/open", { sessionId });
        };
        socket.onmessage = (message) => {
          const frame = JSON.parse(String(message.data)) as {
            id?: number;
            result?: { conversationId?: string; events?: unknown[] };
          };
          if (frame.id === undefined) return; // an event for everyone
          if (!frame.result) return reject(new Error(`bench call failed: ${String(message.data)}`));
          if (frame.id === 1)
            return send(2, "chat/history", { conversationId: frame.result.conversationId });
          const ms = performance.now() - t0;
          socket.close();
          if (!frame.result.events?.length) reject(new Error("chat/history returned no events"));
          else resolve(ms);
        };
      }),
    sessionId,
  );
}

/**
 * Scrolls the transcript up by `pxPerFrame` each frame until the top (or `maxFrames`), recording
 * the frame intervals and the long tasks (> 50 ms of main thread) seen meanwhile.
 */
export function scrollInPage(
  page: Page,
  pxPerFrame: number,
  maxFrames: number,
): Promise<{ frames: number[]; longTasks: number[]; top: number; height: number }> {
  return page.evaluate(
    ({ pxPerFrame, maxFrames }) =>
      new Promise((resolve, reject) => {
        const el = document.querySelector<HTMLElement>(".transcript");
        if (!el) return reject(new Error("no transcript"));
        const longTasks: number[] = [];
        const observer = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) longTasks.push(entry.duration);
        });
        if (PerformanceObserver.supportedEntryTypes.includes("longtask"))
          observer.observe({ type: "longtask" });
        const frames: number[] = [];
        let last = 0;
        const tick = (now: number) => {
          if (last > 0) frames.push(now - last);
          last = now;
          if (el.scrollTop <= 0 || frames.length >= maxFrames) {
            observer.disconnect();
            resolve({ frames, longTasks, top: el.scrollTop, height: el.scrollHeight });
            return;
          }
          el.scrollTop = Math.max(0, el.scrollTop - pxPerFrame);
          requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
    { pxPerFrame, maxFrames },
  );
}

/** In the page (`page.evaluate(idleFrames, n)`): `count` frame intervals of the page doing nothing. */
export function idleFrames(count: number): Promise<number[]> {
  return new Promise((resolve) => {
    const frames: number[] = [];
    let last = 0;
    const tick = (now: number) => {
      if (last > 0) frames.push(now - last);
      last = now;
      if (frames.length < count) requestAnimationFrame(tick);
      else resolve(frames);
    };
    requestAnimationFrame(tick);
  });
}
