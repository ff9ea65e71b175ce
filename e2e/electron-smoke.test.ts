/**
 * The real Electron app (where an Electron binary exists): the sandbox probe runs in a utility
 * process, a plugin that uses typed arrays loads on the backend it chose, and a turn finishes.
 * Run on the Electron target (support/target.ts); elsewhere reported as skipped, with the reason.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { startFakeOpenAI } from "../main/providers/testing/index.ts";
import { electronOnly, target } from "./support/target.ts";

const root = fileURLToPath(new URL("..", import.meta.url));

const electron = target.name === "electron" ? target.electron : null;
const built = existsSync(path.join(root, "out", "main", "index.js"));
const skip =
  electronOnly() || (built ? false : "out/main/index.js is missing: run npm run build first");

test(
  "in the real app a plugin using typed arrays loads and a turn finishes",
  { skip },
  async () => {
    if (electron === null || "missing" in electron) return;
    const dir = await mkdtemp(path.join(tmpdir(), "islet-electron-"));
    const server = await startFakeOpenAI([{ text: ["smoke ok"] }]);
    try {
      const plugin = path.join(dir, "home", "plugins", "bytes");
      await mkdir(plugin, { recursive: true });
      await writeFile(path.join(plugin, "plugin.yaml"), "description: typed arrays\n");
      await writeFile(
        path.join(plugin, "index.ts"),
        `export function beforeChat() {
         const a = new Uint8Array(4096); a.fill(7);
         const f = new Float64Array(512).fill(0.5);
         return { notice: "bytes " + (a[4095] + f[511]) };
       }`,
      );
      const request = {
        home: path.join(dir, "home"),
        workdir: dir,
        baseUrl: server.url,
        model: "m",
        prompt: "hi",
      };
      const out = await new Promise<string>((resolve, reject) => {
        execFile(
          electron.path,
          [root, `--islet-smoke=${JSON.stringify(request)}`],
          {
            timeout: 60_000,
            env: {
              ...process.env,
              ELECTRON_ENABLE_LOGGING: "0",
              // Its own single-instance lock and probe cache, not those of an Islet running here.
              ISLET_USER_DATA_DIR: path.join(dir, "user-data"),
            },
          },
          (err, stdout, stderr) =>
            err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
        );
      });
      const report = JSON.parse(out.trim().split("\n").pop()!) as {
        backend: string;
        reason: string;
        plugins: string[];
        status: string;
        text: string;
        notices: string[];
      };
      assert.deepEqual(report.plugins, ["bytes:active"], JSON.stringify(report));
      assert.equal(report.status, "done", JSON.stringify(report));
      assert.equal(report.text, "smoke ok");
      assert.ok(report.notices.includes("bytes: bytes 7.5"), JSON.stringify(report));
      assert.ok(["isolated-vm", "quickjs"].includes(report.backend), report.reason);
    } finally {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  },
);
