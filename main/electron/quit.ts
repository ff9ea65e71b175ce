// Quitting: the engine closes first (running turns stopped and saved, session files flushed and
// closed, plugin isolates and file watchers disposed), once, however many times quit is asked
// for meanwhile; then the app quits for real. No 'electron' import (tested under plain Node).

export interface QuitEvent {
  preventDefault(): void;
}

/** The parts of Electron's `app` this needs. */
export interface QuitSource {
  on(event: "before-quit", listener: (event: QuitEvent) => void): unknown;
  quit(): void;
}

/**
 * `close` runs on the first `before-quit`; every quit before it has finished is held back, and
 * the app quits when it ends (failed or not). `timeoutMs` bounds it: a wedged plugin or disk
 * must not keep the app from quitting.
 */
export function closeBeforeQuit(
  app: QuitSource,
  close: () => Promise<void>,
  opts: { timeoutMs?: number; log?(message: string): void } = {},
): void {
  let state: "open" | "closing" | "closed" = "open";
  app.on("before-quit", (event) => {
    if (state === "closed") return;
    event.preventDefault();
    if (state === "closing") return;
    state = "closing";
    const timeoutMs = opts.timeoutMs ?? 10_000;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        opts.log?.(`closing the engine took over ${timeoutMs} ms; quitting anyway`);
        resolve();
      }, timeoutMs);
    });
    void Promise.race([
      close().catch((error: unknown) =>
        opts.log?.(`closing the engine failed: ${(error as Error).message}`),
      ),
      timedOut,
    ]).finally(() => {
      clearTimeout(timer);
      state = "closed";
      app.quit();
    });
  });
}
