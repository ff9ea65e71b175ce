// Quitting closes the engine once, holds back every quit until it has, and is never stuck.
import { strict as assert } from "node:assert";
import { EventEmitter } from "node:events";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { closeBeforeQuit, type QuitEvent } from "./quit.ts";

/** Like Electron's app: quit() emits before-quit, and really quits unless it was prevented. */
class FakeApp extends EventEmitter {
  quits = 0;
  quit(): void {
    if (!this.ask()) this.quits++;
  }
  /** Emits before-quit; true when a listener held it back. */
  ask(): boolean {
    let prevented = false;
    const event: QuitEvent = { preventDefault: () => (prevented = true) };
    this.emit("before-quit", event);
    return prevented;
  }
}

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await sleep(10);
  assert.ok(check());
}

describe("closeBeforeQuit", () => {
  it("closes once; quits asked for meanwhile wait; the app quits when the close ends", async () => {
    const app = new FakeApp();
    let closes = 0;
    let finish: () => void = () => {};
    closeBeforeQuit(app, () => {
      closes++;
      return new Promise<void>((resolve) => (finish = resolve));
    });
    app.quit();
    app.quit();
    assert.equal(closes, 1);
    assert.equal(app.quits, 0, "held back while the engine closes");
    finish();
    await until(() => app.quits === 1);
    assert.equal(app.ask(), false, "later quits go through");
    assert.equal(closes, 1);
  });

  it("quits after a failed close, saying so", async () => {
    const app = new FakeApp();
    const log: string[] = [];
    closeBeforeQuit(app, () => Promise.reject(new Error("disk gone")), {
      log: (l) => log.push(l),
    });
    app.quit();
    await until(() => app.quits === 1);
    assert.deepEqual(log, ["closing the engine failed: disk gone"]);
  });

  it("quits anyway when closing hangs past its limit", async () => {
    const app = new FakeApp();
    const log: string[] = [];
    closeBeforeQuit(app, () => new Promise<void>(() => {}), {
      timeoutMs: 100,
      log: (l) => log.push(l),
    });
    app.quit();
    await until(() => app.quits === 1);
    assert.deepEqual(log, ["closing the engine took over 100 ms; quitting anyway"]);
  });
});
