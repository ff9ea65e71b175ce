// Window state under plain Node: placement on today's displays, damaged files, debounced saving.
import { strict as assert } from "node:assert";
import { EventEmitter } from "node:events";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  keepWindowState,
  placeWindow,
  readWindowState,
  type Rect,
  type TrackedWindow,
} from "./window-state.ts";

const limits = { width: 1200, height: 800, minWidth: 640, minHeight: 420 };
const primary: Rect = { x: 0, y: 25, width: 1920, height: 1055 };
const right: Rect = { x: 1920, y: 0, width: 1280, height: 1024 };
const state = (x: number, y: number, width: number, height: number, maximized = false) => ({
  bounds: { x, y, width, height },
  maximized,
});

describe("placeWindow", () => {
  it("uses the defaults, centred, without a saved state", () => {
    assert.deepEqual(placeWindow(null, [primary], limits), {
      width: 1200,
      height: 800,
      maximized: false,
    });
  });

  it("keeps a place that is visible, on whichever display it is", () => {
    assert.deepEqual(placeWindow(state(2000, 100, 1000, 700, true), [primary, right], limits), {
      x: 2000,
      y: 100,
      width: 1000,
      height: 700,
      maximized: true,
    });
  });

  it("centres on the primary display a window whose display is gone, at most that display's size", () => {
    assert.deepEqual(placeWindow(state(2000, 100, 2500, 1400), [primary], limits), {
      width: 1920,
      height: 1055,
      maximized: false,
    });
  });

  it("pulls a window hanging off an edge back inside, and never below the minimum size", () => {
    assert.deepEqual(placeWindow(state(1700, 0, 300, 200), [primary], limits), {
      x: 1280,
      y: 25,
      width: 640,
      height: 420,
      maximized: false,
    });
  });

  it("does not keep a window whose title bar is off every display", () => {
    const placed = placeWindow(state(100, 1070, 800, 600), [primary], limits);
    assert.equal(placed.x, undefined);
    assert.equal(placed.y, undefined);
  });
});

class FakeWindow extends EventEmitter implements TrackedWindow {
  bounds: Rect = { x: 10, y: 20, width: 800, height: 600 };
  maximized = false;
  getNormalBounds(): Rect {
    return { ...this.bounds };
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  isDestroyed(): boolean {
    return false;
  }
}

describe("keepWindowState", () => {
  const dir = mkdtempSync(join(tmpdir(), "islet-window-state-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("reads a damaged or foreign file as no state", () => {
    const file = join(dir, "bad.json");
    writeFileSync(file, "{ not json");
    assert.equal(readWindowState(file), null);
    writeFileSync(file, JSON.stringify({ bounds: { x: "1", y: 2, width: 3, height: 4 } }));
    assert.equal(readWindowState(file), null);
    assert.equal(readWindowState(join(dir, "missing.json")), null);
  });

  it("saves once the window is still, and at once when it closes", async () => {
    const file = join(dir, "sub", "window-state.json");
    const win = new FakeWindow();
    keepWindowState(win, file, { delayMs: 50 });
    for (let i = 0; i < 20; i++) {
      win.bounds = { ...win.bounds, x: 10 + i };
      win.emit("move");
    }
    assert.ok(!existsSync(file), "nothing is written while the window moves");
    for (let i = 0; i < 500 && !existsSync(file); i++) await sleep(10);
    assert.deepEqual(readWindowState(file), { bounds: { ...win.bounds }, maximized: false });

    win.maximized = true;
    win.emit("maximize");
    win.emit("close");
    assert.deepEqual(JSON.parse(readFileSync(file, "utf8")), {
      bounds: { x: 29, y: 20, width: 800, height: 600 },
      maximized: true,
    });
  });
});
