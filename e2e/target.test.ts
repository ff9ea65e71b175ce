/**
 * The one decision of which app the e2e specs drive (support/target.ts), and what the desktop app
 * is launched with on the Electron target (support/electron.ts), checked without an Electron
 * binary: a fake electron package in a temporary folder.
 */
import assert from "node:assert/strict";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { electronLaunchOptions } from "./support/electron.ts";
import { decideTarget, findElectron, skipReason, type Found } from "./support/target.ts";

const chromium: Found = { path: "/usr/bin/chromium" };
const electron: Found = { path: "/opt/electron/electron" };
const noElectron: Found = { missing: "node_modules/electron/path.txt is missing" };
const find = (e: Found) => ({ electron: () => e, chromium: () => chromium });

describe("the e2e target", () => {
  it("is islet serve where there is no Electron binary, Electron where there is one", () => {
    assert.deepEqual(decideTarget({}, find(noElectron)), {
      name: "serve",
      chromium,
      why: "no Electron binary: node_modules/electron/path.txt is missing",
    });
    assert.deepEqual(decideTarget({}, find(electron)), { name: "electron", electron });
  });

  it("is what ISLET_E2E_TARGET asks for; Electron without a binary skips, saying why", () => {
    const asked = (value: string, e: Found) => decideTarget({ ISLET_E2E_TARGET: value }, find(e));
    assert.deepEqual(asked("serve", electron), {
      name: "serve",
      chromium,
      why: "ISLET_E2E_TARGET=serve",
    });
    const missing = asked("electron", noElectron);
    assert.deepEqual(missing, { name: "electron", electron: noElectron });
    assert.equal(
      skipReason(missing),
      "no Electron binary: node_modules/electron/path.txt is missing",
    );
    assert.throws(() => asked("firefox", electron), /ISLET_E2E_TARGET=firefox .*serve or electron/);
  });

  it("skips serve-only specs on Electron and Electron-only ones on serve, with the reason", () => {
    const onServe = decideTarget({ ISLET_E2E_TARGET: "serve" }, find(electron));
    const onElectron = decideTarget({ ISLET_E2E_TARGET: "electron" }, find(electron));
    assert.equal(skipReason(onServe), false);
    assert.equal(skipReason(onElectron), false);
    assert.equal(
      skipReason(onElectron, { serveOnly: "opens a second browser tab" }),
      "islet serve only (opens a second browser tab): not run on the Electron target",
    );
    assert.equal(skipReason(onServe, { serveOnly: "opens a second browser tab" }), false);
    assert.equal(
      skipReason(onServe, { electronOnly: true }),
      "Electron only, and the target is islet serve — ISLET_E2E_TARGET=serve",
    );
    const noChromium = decideTarget(
      { ISLET_E2E_TARGET: "serve" },
      { electron: () => electron, chromium: () => ({ missing: "no Chromium binary" }) },
    );
    assert.equal(skipReason(noChromium), "no Chromium binary");
    assert.equal(skipReason(noChromium, { serveOnly: "its socket", browser: false }), false);
  });
});

describe("findElectron", () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), "islet-e2e-target-"));
  });
  after(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("reads the electron package's path.txt and wants an executable file there", async () => {
    const pkg = path.join(root, "node_modules", "electron");
    await mkdir(path.join(pkg, "dist"), { recursive: true });
    const found = findElectron({}, root);
    assert.ok("missing" in found);
    assert.match(found.missing, /node_modules\/electron\/path\.txt is missing/);

    await writeFile(path.join(pkg, "path.txt"), "electron\n");
    const binary = path.join(pkg, "dist", "electron");
    await writeFile(binary, "#!/bin/sh\n");
    assert.deepEqual(findElectron({}, root), { missing: `${binary} is not executable` });
    await chmod(binary, 0o755);
    assert.deepEqual(findElectron({}, root), { path: binary });
  });

  it("takes ELECTRON_EXEC_PATH first, when it can be run", async () => {
    const own = path.join(root, "my-electron");
    assert.ok("missing" in findElectron({ ELECTRON_EXEC_PATH: own }, root));
    await writeFile(own, "#!/bin/sh\n", { mode: 0o755 });
    assert.deepEqual(findElectron({ ELECTRON_EXEC_PATH: own }, root), { path: own });
  });
});

describe("electronLaunchOptions", () => {
  it("launches the built app from its folder with its own home, workspace, user data and model", () => {
    const options = electronLaunchOptions({
      executablePath: "/opt/electron/electron",
      home: "/tmp/spec/home",
      workdir: "/tmp/spec/project",
      userDataDir: "/tmp/spec/user-data",
      model: { provider: "openai-compatible", baseUrl: "http://127.0.0.1:5555/v1", model: "m" },
      colorScheme: "dark",
      root: "/repo",
      baseEnv: {
        PATH: "/usr/bin",
        DISPLAY: ":99",
        ELECTRON_RUN_AS_NODE: "1",
        ISLET_HOME: "/home/me/.islet",
        ISLET_E2E_TARGET: "electron",
      },
    });
    assert.equal(options.executablePath, "/opt/electron/electron");
    assert.deepEqual(options.args, ["/repo"]);
    assert.equal(options.cwd, "/repo");
    assert.equal(options.colorScheme, "dark");
    assert.deepEqual(options.env, {
      PATH: "/usr/bin",
      DISPLAY: ":99",
      NO_COLOR: "1",
      ISLET_HOME: "/tmp/spec/home",
      ISLET_WORKDIR: "/tmp/spec/project",
      ISLET_USER_DATA_DIR: "/tmp/spec/user-data",
      ISLET_PROVIDER: "openai-compatible",
      ISLET_BASE_URL: "http://127.0.0.1:5555/v1",
      ISLET_MODEL: "m",
    });
  });
});
