// Exercises the Electron shell under plain Node with a fake 'electron' (testing/fake-electron.ts):
// start-up order, hardened window, navigation and permission locks, the app:// handler, and the
// IPC seam's sender check and zod validation.
import { strict as assert } from "node:assert";
import { mkdtemp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { registerHooks } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import {
  CALL_NAMES,
  CANCEL_CHANNEL,
  EVENT_CHANNEL,
  HELLO_CHANNEL,
  STREAM_NAMES,
  callChannel,
  streamChannel,
} from "../bridge/names.ts";

const fakeUrl = new URL("./testing/fake-electron.ts", import.meta.url).href;
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === "electron") return { url: fakeUrl, shortCircuit: true };
    return nextResolve(specifier, context);
  },
});

const fake = await import("./testing/fake-electron.ts");
// The e2e specs' own user-data folder (launch-env.ts), set before the single-instance lock.
process.env["ISLET_USER_DATA_DIR"] = join(tmpdir(), "islet-shell-user-data");
// Started by an install link, as Windows and Linux start an app for a link it registered.
process.argv.push("islet://install?source=acme%2Fhello");
await import("./app.ts");
const { handleAppScheme } = await import("./protocol.ts");

type Win = InstanceType<typeof fake.BrowserWindow>;

async function settle(): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
}

describe("Electron shell (fake electron)", () => {
  let win: Win;

  // The engine the app starts: a temporary home with one plugin that uses typed arrays, and a
  // sandbox probe that crashes (as isolated-vm does inside Electron's memory cage).
  let home: string;
  before(async () => {
    assert.equal(fake.probe.userData, join(tmpdir(), "islet-shell-user-data"));
    home = await mkdtemp(join(tmpdir(), "islet-shell-home-"));
    const plugin = join(home, "plugins", "typed");
    await mkdir(plugin, { recursive: true });
    await writeFile(join(plugin, "plugin.yaml"), 'description: "Sums a Float64Array"\n');
    await writeFile(
      join(plugin, "index.ts"),
      "export function beforeChat() { return { notice: String(new Float64Array([1, 2]).reduce((a, b) => a + b)) }; }\n",
    );
    process.env["ISLET_HOME"] = home;
    process.env["ISLET_WORKDIR"] = home;
    fake.probe.userData = join(home, "user-data");
    fake.probe.outcome = { exit: 134 };
    // Where the window was last: maximized, on the second display.
    await mkdir(fake.probe.userData, { recursive: true });
    await writeFile(
      join(fake.probe.userData, "window-state.json"),
      JSON.stringify({ bounds: { x: 2000, y: 100, width: 1000, height: 700 }, maximized: true }),
    );
    assert.deepEqual(fake.recorded.order, [
      "setName",
      "setPath:userData",
      "enableSandbox",
      "registerSchemes",
      "requestSingleInstanceLock",
    ]);
    fake.emitReady();
    await settle();
    assert.equal(fake.BrowserWindow.all.length, 1);
    win = fake.BrowserWindow.all[0] as Win;
  });

  // Quitting closes the engine (plugin sandboxes, watchers, session files) before the app really
  // quits; a second quit meanwhile is held back too.
  after(async () => {
    fake.app.quit();
    fake.app.quit();
    assert.deepEqual(fake.recorded.order.slice(-2), ["quit-held", "quit-held"]);
    for (let i = 0; i < 250 && !fake.recorded.order.includes("quit"); i++) await sleep(20);
    assert.equal(fake.recorded.order.at(-1), "quit", "the app quits once the engine has closed");
    await rm(home, { recursive: true, force: true });
  });

  it("opens the window where it was (maximized, on the second display) and saves where it goes", async () => {
    assert.deepEqual(
      [win.options["x"], win.options["y"], win.options["width"], win.options["height"]],
      [2000, 100, 1000, 700],
    );
    win.emit("ready-to-show");
    assert.equal(win.isMaximized(), true);
    const stateFile = join(home, "user-data", "window-state.json");
    win.maximized = false;
    win.normalBounds = { x: 300, y: 200, width: 900, height: 600 };
    win.emit("move");
    win.emit("close");
    assert.deepEqual(JSON.parse(await readFile(stateFile, "utf8")), {
      bounds: { x: 300, y: 200, width: 900, height: 600 },
      maximized: false,
    });
  });

  it("a second launch brings the running window forward instead of opening another", () => {
    const before = win.focused;
    fake.app.emit("second-instance", {}, ["islet"], "/");
    assert.equal(win.focused, before + 1);
    assert.equal(fake.BrowserWindow.all.length, 1);
  });

  it("sets the application menu: File, Edit, View (with reload and dev tools in development), Window, Help", () => {
    const menu = fake.recorded.menu as { label?: string; submenu?: { role?: string }[] }[];
    assert.deepEqual(
      menu.map((m) => m.label),
      process.platform === "darwin"
        ? ["Islet", "&File", "&Edit", "&View", "&Window", "&Help"]
        : ["&File", "&Edit", "&View", "&Window", "&Help"],
    );
    const view = menu.find((m) => m.label === "&View")?.submenu?.map((i) => i.role) ?? [];
    for (const role of ["reload", "toggleDevTools", "zoomIn", "zoomOut", "resetZoom"])
      assert.ok(view.includes(role), role);
  });

  it("registers app:// as a standard secure scheme without CORS or CSP bypass", () => {
    assert.deepEqual(fake.recorded.privileges, [
      {
        scheme: "app",
        privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
      },
    ]);
  });

  it("opens one hardened window on app://islet", () => {
    const prefs = win.options["webPreferences"] as Record<string, unknown>;
    assert.equal(prefs["contextIsolation"], true);
    assert.equal(prefs["sandbox"], true);
    assert.equal(prefs["nodeIntegration"], false);
    assert.equal(prefs["webSecurity"], true);
    assert.equal(prefs["webviewTag"], false);
    assert.match(String(prefs["preload"]), /preload[/\\]index\.cjs$/);
    assert.equal(win.loadedUrl.split("#")[0], "app://islet/index.html");
  });

  it("registers islet:// links; the link the app was started with opens the first window with it", () => {
    assert.deepEqual(fake.recorded.protocolClients, [["islet"]]);
    assert.equal(win.loadedUrl, "app://islet/index.html#install?source=acme%2Fhello");
  });

  it("a link to the running app (second launch, macOS open-url) comes forward and goes to the page", async () => {
    const sent = () =>
      win.webContents.sent.filter((m) => m[0] === EVENT_CHANNEL && m[1] === "app/installLink");
    const before = win.focused;
    fake.app.emit(
      "second-instance",
      {},
      ["islet", "--x", "islet://install?source=acme%2Fone"],
      "/",
    );
    fake.app.emit("open-url", { preventDefault() {} }, "islet://install?source=acme%2Ftwo&ref=v2");
    fake.app.emit("open-url", { preventDefault() {} }, "islet://other?source=acme%2Fthree");
    for (let i = 0; i < 100 && sent().length < 2; i++) await sleep(20);
    assert.equal(win.focused, before + 3);
    assert.deepEqual(
      sent().map((m) => m[2]),
      [{ query: "source=acme%2Fone" }, { query: "source=acme%2Ftwo&ref=v2" }],
    );
  });

  it("locks navigation and window.open; https links go to the OS browser", () => {
    let prevented = 0;
    const event = { preventDefault: () => void prevented++ };
    win.webContents.emit("will-navigate", event, "https://example.com/a");
    win.webContents.emit("will-navigate", event, "file:///etc/passwd");
    assert.equal(prevented, 2);
    assert.deepEqual(win.webContents.windowOpenHandler?.({ url: "https://example.com/b" }), {
      action: "deny",
    });
    assert.deepEqual(win.webContents.windowOpenHandler?.({ url: "javascript:alert(1)" }), {
      action: "deny",
    });
    assert.deepEqual(fake.recorded.opened, ["https://example.com/a", "https://example.com/b"]);
  });

  it("denies permissions except clipboard write for our own origin", () => {
    const check = fake.recorded.permissionCheck;
    assert.ok(check);
    assert.equal(check(null, "media", "app://islet"), false);
    assert.equal(check(null, "geolocation", "app://islet"), false);
    assert.equal(check(null, "clipboard-sanitized-write", "app://islet"), true);
    assert.equal(check(null, "clipboard-sanitized-write", "https://evil.example"), false);
    const decisions: boolean[] = [];
    fake.recorded.permissionRequest?.(null, "notifications", (ok: boolean) => decisions.push(ok), {
      requestingUrl: "app://islet/index.html",
    });
    assert.deepEqual(decisions, [false]);
  });

  describe("bridge over IPC", () => {
    const invoke = (name: string, event: unknown, ...args: unknown[]): unknown => {
      const handler = fake.recorded.ipcHandlers.get(`islet:${name}`);
      assert.ok(handler, `no handler for ${name}`);
      return handler(event, ...args);
    };
    /** The call's result; its outcome must be ok. */
    const call = async (name: string, event: unknown, ...args: unknown[]): Promise<unknown> => {
      const outcome = (await invoke(name, event, ...args)) as { ok: boolean; result: unknown };
      assert.equal(outcome.ok, true, JSON.stringify(outcome));
      return outcome.result;
    };
    const trusted = (): unknown => ({
      sender: win.webContents,
      senderFrame: win.webContents.mainFrame,
    });

    it("registers one handler per call and stream of the contract, one to cancel, one for a new page", () => {
      // Every name of the contract (names.ts), so a new call needs no edit here.
      assert.deepEqual(
        [...fake.recorded.ipcHandlers.keys()].sort(),
        [
          ...CALL_NAMES.map(callChannel),
          ...STREAM_NAMES.map(streamChannel),
          CANCEL_CHANNEL,
          HELLO_CHANNEL,
        ].sort(),
      );
    });

    it("answers app/info from our window once the engine has started", async () => {
      const info = (await call("app/info", trusted())) as Record<string, unknown>;
      assert.equal(info["name"], "Islet");
      assert.equal(info["host"], "desktop");
      assert.equal(info["home"], home);
      assert.deepEqual(info["versions"], {
        node: process.versions.node,
        electron: null,
        chrome: null,
      });
    });

    it("ran the sandbox probe first, and a crashed probe puts plugins on QuickJS with the reason", async () => {
      assert.deepEqual(fake.recorded.forked, ["/fake/app/out/main/isolated-vm-probe.js"]);
      const list = (await call("plugins/list", trusted())) as {
        backend: { name: string; reason: string };
        plugins: { name: string; status: string; backend: { name: string } }[];
      };
      assert.equal(list.backend.name, "quickjs");
      assert.match(list.backend.reason, /probe crashed \(exit code 134\).*using QuickJS/);
      assert.deepEqual(
        list.plugins.map((p) => [p.name, p.status, p.backend.name]),
        [["typed", "active", "quickjs"]],
      );
    });

    it("pushes events to our window only", async () => {
      fake.recorded.sent.length = 0;
      const result = (await call("plugins/reload", trusted())) as { reports: { ok: boolean }[] };
      assert.deepEqual(
        result.reports.map((r) => r.ok),
        [true],
      );
      assert.equal(fake.recorded.sent.length, 1);
      const [channel, event, payload] = fake.recorded.sent[0];
      assert.equal(channel, "islet:event");
      assert.equal(event, "plugins/changed");
      assert.deepEqual(payload, { cause: "reload", ...result });
    });

    it("refuses senders that are not our window's main frame on our origin", async () => {
      const subframe = new fake.FakeFrame("app://islet");
      subframe.parent = win.webContents.mainFrame;
      const stranger = new fake.FakeWebContents();
      stranger.mainFrame.origin = "app://islet";
      const foreignOrigin = new fake.FakeWebContents();
      const cases = [
        { sender: win.webContents, senderFrame: null },
        { sender: win.webContents, senderFrame: subframe },
        { sender: stranger, senderFrame: stranger.mainFrame },
        { sender: foreignOrigin, senderFrame: foreignOrigin.mainFrame },
      ];
      for (const event of cases) {
        await assert.rejects(
          async () => invoke("app/info", event),
          /app\/info: refused, the sender is not this app's window/,
        );
      }
    });

    it("answers malformed payloads with a problem naming the call", async () => {
      const outcome = (await invoke("plugins/list", trusted(), { sneaky: true })) as {
        ok: boolean;
        problem: { source: string; title: string };
      };
      assert.deepEqual(
        [outcome.ok, outcome.problem.source, outcome.problem.title],
        [false, "plugins/list", "invalid payload"],
      );
      await assert.rejects(
        async () => invoke("app/info", trusted(), undefined, "second"),
        /app\/info: expected 1 argument\(s\), got 2/,
      );
    });
  });

  describe("app:// handler", () => {
    let root: string;
    let serve: (url: string, method?: string) => Promise<Response>;

    before(async () => {
      root = await mkdtemp(join(tmpdir(), "islet-renderer-"));
      await mkdir(join(root, "assets"));
      await writeFile(join(root, "index.html"), "<!doctype html><title>Islet</title>");
      await writeFile(join(root, "assets", "a.js"), "export {};");
      await writeFile(join(root, "..", "islet-secret.txt"), "secret");
      handleAppScheme(root);
      const handler = fake.recorded.protocolHandlers.get("app");
      assert.ok(handler);
      serve = async (url, method = "GET") => handler(new Request(url, { method }));
    });

    after(async () => {
      await rm(root, { recursive: true, force: true });
      await rm(join(root, "..", "islet-secret.txt"), { force: true });
    });

    it("serves files with a MIME type and the CSP header", async () => {
      const page = await serve("app://islet/index.html");
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self'/);
      assert.equal(page.headers.get("x-content-type-options"), "nosniff");
      assert.match(await page.text(), /<title>Islet/);
      const script = await serve("app://islet/assets/a.js");
      assert.match(script.headers.get("content-type") ?? "", /^text\/javascript/);
    });

    it("falls back to index.html for routes, 404s missing assets, refuses other hosts", async () => {
      assert.equal((await serve("app://islet/")).status, 200);
      assert.equal((await serve("app://islet/settings/providers")).status, 200);
      assert.equal((await serve("app://islet/assets/missing.js")).status, 404);
      assert.equal((await serve("app://other/index.html")).status, 404);
      assert.equal((await serve("app://islet/index.html", "POST")).status, 405);
    });

    it("never serves files outside the renderer folder", async () => {
      for (const url of [
        "app://islet/../islet-secret.txt",
        "app://islet/%2e%2e/islet-secret.txt",
        "app://islet/..%2fislet-secret.txt",
        "app://islet/assets/..%2f..%2fislet-secret.txt",
      ]) {
        const response = await serve(url);
        assert.notEqual(await response.text(), "secret", url);
      }
    });
  });
});
