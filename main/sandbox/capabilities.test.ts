/**
 * The capabilities end to end: plugin code in a real sandbox, the real host capabilities, real
 * files, a real loopback HTTP server and real programs.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { createHostCapabilities } from "../code-plugins/capabilities/index.ts";
import type { PluginPermissions } from "../code-plugins/capabilities/permissions.ts";
import { expectFault, forEachBackend, loadPlugin, sleep, type LogLine } from "./testing.ts";

let base: string;
let workdir: string;
let pluginDir: string;
let server: Server;
let origin: string;
let hangingClosed = 0;
const hanging: ServerResponse[] = [];

before(async () => {
  base = mkdtempSync(path.join(os.tmpdir(), "islet-caps-"));
  workdir = path.join(base, "work");
  pluginDir = path.join(base, "plugins", "probe");
  mkdirSync(workdir, { recursive: true });
  mkdirSync(pluginDir, { recursive: true });
  writeFileSync(path.join(base, "secret.txt"), "secret");
  writeFileSync(path.join(workdir, "notes.md"), "# notes");
  server = createServer((req, res) => {
    if (req.url === "/hang") {
      hanging.push(res);
      res.on("close", () => hangingClosed++);
      return;
    }
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ path: req.url, method: req.method }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  for (const res of hanging) res.destroy();
  server.close();
  rmSync(base, { recursive: true, force: true });
});

function host(opts: { unsafe?: boolean; permissions?: PluginPermissions; logs?: LogLine[] } = {}) {
  return createHostCapabilities({
    plugin: "probe",
    pluginDir,
    dataDir: path.join(base, "home", "plugin-data", "probe"),
    workdir,
    protected: { globalHome: path.join(base, "home"), pluginDirs: [], secretFiles: [] },
    env: { GREETING: "hi" },
    exec: opts.unsafe ?? false,
    permissions: opts.permissions ?? {},
    log: (level, text) => opts.logs?.push({ level, text }),
  });
}

forEachBackend((backend) => {
  describe("capabilities through the sandbox", () => {
    test("fs: reads the workspace, writes its data folder; escapes are refused with one clear line", async () => {
      const m = await loadPlugin(
        backend,
        `import { fs } from "@islet/sdk";
         export async function run() {
           const notes = await fs.readFile("notes.md");
           await fs.writeFile(fs.dataDir + "/out/report.txt", notes + "!");
           await fs.appendFile(fs.dataDir + "/out/report.txt", "?");
           const errors = [];
           for (const p of ["../secret.txt", "/etc/passwd"]) {
             try { await fs.readFile(p); } catch (e) { errors.push(e.message); }
           }
           try { await fs.writeFile("report.txt", "x"); } catch (e) { errors.push(e.message); }
           return { notes, listing: await fs.readdir(fs.dataDir + "/out"), exists: await fs.exists("nope"), stat: (await fs.stat("notes.md")).size, errors };
         }`,
        { host: host() },
      );
      const result = (await m.call("run", [])) as { errors: string[] } & Record<string, unknown>;
      assert.deepEqual(
        { ...result, errors: result.errors.length },
        { notes: "# notes", listing: ["report.txt"], exists: false, stat: 7, errors: 3 },
      );
      assert.match(
        result.errors[0] ?? "",
        /^plugin probe cannot read \.\.\/secret\.txt: it is outside the workspace/,
      );
      assert.match(
        result.errors[2] ?? "",
        /^plugin probe cannot write report\.txt: the workspace is read-only/,
      );
      const data = path.join(base, "home", "plugin-data", "probe");
      assert.equal(readFileSync(path.join(data, "out/report.txt"), "utf8"), "# notes!?");
      m.dispose();
    });

    test("fetch: permitted host returns a Response-like object; others are refused", async () => {
      const code = `export async function get(url) {
          try {
            const r = await fetch(url, { headers: { Accept: "application/json" } });
            return { ok: r.ok, status: r.status, type: r.headers.get("Content-Type"), has: r.headers.has("content-type"), body: await r.json() };
          } catch (e) { return { error: e.message }; }
        }`;
      const allowed = await loadPlugin(backend, code, {
        host: host({ permissions: { network: [{ host: "127.0.0.1", reason: "test" }] } }),
      });
      assert.deepEqual(await allowed.call("get", [`${origin}/data?x=1`]), {
        ok: true,
        status: 200,
        type: "application/json",
        has: true,
        body: { path: "/data?x=1", method: "GET" },
      });
      allowed.dispose();
      const denied = await loadPlugin(backend, code, { host: host() });
      assert.deepEqual(await denied.call("get", [`${origin}/data`]), {
        error: `plugin probe has no network permission for ${new URL(origin).host}: add it to permissions.network in plugin.yaml with a reason`,
      });
      denied.dispose();
    });

    test("disposing the sandbox aborts its in-flight fetch", async () => {
      const m = await loadPlugin(
        backend,
        `export function start(url) { fetch(url).catch(() => {}); return "started"; }`,
        { host: host({ permissions: { network: [{ host: "127.0.0.1", reason: "test" }] } }) },
      );
      assert.equal(await m.call("start", [`${origin}/hang`]), "started");
      await sleep(50);
      const before = hangingClosed;
      m.dispose();
      await sleep(100);
      assert.equal(hangingClosed, before + 1);
    });

    test("exec: works in unsafe mode, is killed on timeout, and is absent otherwise", async () => {
      const code = `import { exec } from "@islet/sdk/exec";
         export const run = (argv, options) => exec(argv, options);
         export async function slow(node) {
           try { await exec([node, "-e", "setInterval(() => {}, 1000)"], { timeoutMs: 100 }); return "finished"; }
           catch (e) { return e.message; }
         }`;
      const m = await loadPlugin(backend, code, {
        host: host({ unsafe: true }),
        limits: { callTimeoutMs: 5_000 },
      });
      assert.deepEqual(
        await m.call("run", [[process.execPath, "-e", "console.log(process.env.GREETING)"]]),
        { code: 0, stdout: "hi\n", stderr: "" },
      );
      assert.match(
        String(await m.call("slow", [process.execPath])),
        /timed out after 100 ms and was killed/,
      );
      m.dispose();
      await expectFault(loadPlugin(backend, code, { host: host() }), "load", /enable unsafe mode/);
    });

    test("console goes to the plugin log; env is the whitelist", async () => {
      const logs: LogLine[] = [];
      const m = await loadPlugin(
        backend,
        `export function f() { console.info("env", process.env); }`,
        { host: host({ logs }) },
      );
      await m.call("f", []);
      assert.deepEqual(logs, [{ level: "info", text: "env { GREETING: 'hi' }" }]);
      m.dispose();
    });
  });
});
