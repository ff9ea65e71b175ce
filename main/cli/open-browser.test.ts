import { strict as assert } from "node:assert";
import { test } from "node:test";
import { browserCommand } from "./open-browser.ts";

const URL = "http://127.0.0.1:5173/?token=abc";

test("$BROWSER wins; %s stands for the URL, which stays one argument", () => {
  assert.deepEqual(browserCommand(URL, { BROWSER: "firefox" }, "linux"), {
    command: "firefox",
    args: [URL],
  });
  assert.deepEqual(browserCommand(URL, { BROWSER: "w3m -o x=%s:lynx" }, "linux"), {
    command: "w3m",
    args: ["-o", `x=${URL}`],
  });
});

test("the system's opener, and on Linux only with a display", () => {
  assert.deepEqual(browserCommand(URL, {}, "darwin"), { command: "open", args: [URL] });
  assert.deepEqual(browserCommand(URL, { DISPLAY: ":0" }, "linux"), {
    command: "xdg-open",
    args: [URL],
  });
  assert.deepEqual(browserCommand(URL, { WAYLAND_DISPLAY: "wayland-0" }, "linux"), {
    command: "xdg-open",
    args: [URL],
  });
  assert.match((browserCommand(URL, {}, "linux") as { none: string }).none, /no display/);
});
