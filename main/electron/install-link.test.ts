/**
 * The desktop glue of install links under plain Node with the fake electron's app: the scheme is
 * registered; a second launch's argv (Windows, Linux) and macOS's open-url bring the window
 * forward and hand on the link's query alone; other islet: links and other arguments are not
 * read as one; what arrives is what the engine then checks.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { beforeEach, test } from "node:test";
import type { App } from "electron";
import { checkInstallLink } from "../packs/link.ts";
import { installLinkQuery, linkArgument, listenForInstallLinks } from "./install-link.ts";
import { app, recorded } from "./testing/fake-electron.ts";

const fakeApp = app as unknown as Pick<App, "on" | "setAsDefaultProtocolClient">;

function listen(argv: string[], defaultApp = false) {
  const seen: string[] = [];
  const opened: [string | null, string][] = [];
  const first = listenForInstallLinks(fakeApp, {
    defaultApp,
    execPath: "/opt/islet/islet",
    argv,
    focus: () => seen.push("focus"),
    open: (query, href) => {
      seen.push("open");
      opened.push([query, href]);
    },
  });
  return { first, seen, opened };
}

beforeEach(() => {
  app.removeAllListeners("open-url");
  app.removeAllListeners("second-instance");
  recorded.protocolClients.length = 0;
});

test("registers islet:// for the packaged app, and for `electron path/to/app` with its script", () => {
  listen(["/opt/islet/islet"]);
  listen(["/usr/bin/electron", "out/main/index.js"], true);
  assert.deepEqual(recorded.protocolClients, [
    ["islet"],
    ["islet", "/opt/islet/islet", [path.resolve("out/main/index.js")]],
  ]);
});

test("a second launch with a link (Windows, Linux) comes forward and hands on the query alone", () => {
  const l = listen(["/opt/islet/islet"]);
  assert.equal(l.first, null);
  const href = "islet://install?source=acme%2Ftools&ref=v1&subpath=packs%2Flint";
  app.emit("second-instance", {}, ["/opt/islet/islet", "--no-sandbox", href], "/home/me");
  assert.deepEqual(l.seen, ["focus", "open"]);
  assert.deepEqual(l.opened, [["source=acme%2Ftools&ref=v1&subpath=packs%2Flint", href]]);
  assert.deepEqual(checkInstallLink(l.opened[0][0] ?? ""), {
    ok: true,
    link: { source: "https://github.com/acme/tools.git", ref: "v1", subpath: "packs/lint" },
  });
});

test("a second launch without a link only comes forward; other islet: links are not install links", () => {
  const l = listen(["/opt/islet/islet"]);
  app.emit("second-instance", {}, ["/opt/islet/islet"], "/");
  app.emit("second-instance", {}, ["/opt/islet/islet", "islet://settings?x=1"], "/");
  app.emit("second-instance", {}, ["/opt/islet/islet", "islet://install/../settings?x=1"], "/");
  assert.deepEqual(l.seen, ["focus", "focus", "open", "focus", "open"]);
  assert.deepEqual(
    l.opened.map(([query]) => query),
    [null, null],
  );
});

test("macOS open-url is taken (not left to the OS) and hands on the query", () => {
  const l = listen(["/Applications/Islet.app/Contents/MacOS/Islet"]);
  let prevented = false;
  app.emit(
    "open-url",
    { preventDefault: () => (prevented = true) },
    "ISLET://install?source=https%3A%2F%2Fgit.example.com%2Fp.git",
  );
  assert.equal(prevented, true);
  assert.deepEqual(l.opened, [
    [
      "source=https%3A%2F%2Fgit.example.com%2Fp.git",
      "ISLET://install?source=https%3A%2F%2Fgit.example.com%2Fp.git",
    ],
  ]);
});

test("a launch started by a link returns its query for the first window", () => {
  const l = listen(["/opt/islet/islet", "islet://install?source=acme/x"]);
  assert.equal(l.first, "source=acme/x");
  assert.deepEqual(l.seen, []);
});

test("arguments around a link are never read as part of it; a hostile link reaches the engine's check", () => {
  const argv = [
    "/opt/islet/islet",
    "--gpu-launcher=touch /tmp/pwned",
    "islet://install?source=--upload-pack%3Dtouch%20%2Ftmp%2Fx",
    "--renderer-cmd-prefix=evil",
  ];
  assert.equal(linkArgument(argv), argv[2]);
  const query = installLinkQuery(argv[2]);
  assert.equal(query, "source=--upload-pack%3Dtouch%20%2Ftmp%2Fx");
  const checked = checkInstallLink(query ?? "");
  assert.equal(checked.ok, false);
  assert.match(checked.ok ? "" : checked.error, /^source: /);
  const long = installLinkQuery(`islet://install?source=acme/x&ref=${"a".repeat(100_000)}`) ?? "";
  assert.ok(long.length < 5000);
  assert.match((checkInstallLink(long) as { error: string }).error, /^the link is too long/);
  for (const other of [
    "https://install?source=x",
    "isletx://install?source=x",
    "islet:",
    "islet://",
  ])
    assert.equal(installLinkQuery(other), null, other);
});
