/**
 * A command-only plugin probed at an earlier start lists its command without a sandbox: the
 * sandbox starts at the command's first use. A plugin with hooks, or one that asked the host
 * something other than in a command (its probe, a timer), starts with the engine as before, and an edited plugin is probed again (its new
 * command is listed). Real isolates, each backend.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, test } from "node:test";
import type { CommandEnv } from "../../commands/types.ts";
import { resolveHomes } from "../../config/homes.ts";
import { Contributions } from "../../contributions/contributions.ts";
import { SANDBOX_BACKENDS } from "../../sandbox/backends.ts";
import { tempDir, waitFor } from "../loader/testing.ts";
import { createPluginRuntime } from "../setup.ts";

const stamp = (name: string) => `
let runs = 0;
export function command() { return { name: "${name}", description: "Stamps it.", hints: ["what"] }; }
export function executeCommand(args) { runs++; return { output: "stamped " + args + " #" + runs }; }`;

const env = { context: () => ({}) } as unknown as CommandEnv;

for (const backend of SANDBOX_BACKENDS) {
  describe(`[${backend}]`, () => {
    test("a command-only plugin's sandbox starts at the command's first use", async () => {
      const dir = tempDir("islet-start-on-use-");
      dir.write({
        "home/plugins/stamper/plugin.yaml": "description: stamps\n",
        "home/plugins/stamper/index.js": stamp("stamp"),
        "home/plugins/hooked/plugin.yaml": "description: hooks every turn\n",
        "home/plugins/hooked/index.js": "export function beforeChat() { return undefined; }\n",
        // Its command depends on what the host says: not something the code alone determines.
        "home/plugins/asker/plugin.yaml": "description: asks the host\n",
        "home/plugins/asker/index.js": `import { fs } from "@islet/sdk";
export async function command() {
  return { name: (await fs.exists(fs.dataDir + "/flag")) ? "flagged" : "unflagged", description: "" };
}
export function executeCommand() { return { output: "asked" }; }`,
        // Works in the background (a timer asking the host): its module must run from the start.
        "home/plugins/ticker/plugin.yaml": "description: ticks\n",
        "home/plugins/ticker/index.js": `import { fs } from "@islet/sdk";
setTimeout(() => { void fs.exists(fs.dataDir + "/tick"); }, 100);
export function command() { return { name: "tick", description: "" }; }
export function executeCommand() { return { output: "ticked" }; }`,
      });
      const start = async () => {
        const contributions = new Contributions();
        const runtime = await createPluginRuntime({
          homes: resolveHomes({ home: dir.path("home"), workdir: dir.root }),
          flags: { pluginRuntime: backend },
          env: {},
          registrar: contributions.registrar(),
          contextFallback: () => {
            throw new Error("no plugin tools here");
          },
          warn: () => {},
        });
        return { runtime, commands: contributions.commands };
      };
      try {
        // The first start probes the plugin in its sandbox.
        let { runtime, commands } = await start();
        assert.equal(runtime.get("stamper")!.plugin.notStarted, false);
        assert.equal((await commands.get("stamp")!.run("a", env)).output, "stamped a #1");
        // Generous: the ticker's timer fires after 100 ms.
        await waitFor(() => existsSync(dir.path("home/cache/plugins/exports.json")), 10_000);
        await sleep(1_000);
        await runtime.dispose();

        ({ runtime, commands } = await start());
        const stamper = runtime.get("stamper")!.plugin;
        assert.equal(stamper.notStarted, true, "no sandbox before the command is used");
        assert.equal(stamper.heapUsed(), 0);
        assert.equal(
          runtime.get("hooked")!.plugin.notStarted,
          false,
          "hooks start with the engine",
        );
        assert.equal(runtime.get("asker")!.plugin.notStarted, false, "it asked the host: probed");
        assert.equal(runtime.get("ticker")!.plugin.notStarted, false, "it works in the background");
        assert.ok(commands.get("unflagged"));
        assert.ok(runtime.get("hooked")!.plugin.heapUsed() > 0);
        const listed = commands.get("stamp")!;
        assert.deepEqual([listed.description, listed.hints], ["Stamps it.", "[what]"]);
        // Its module runs fresh at the first use, and keeps its state after.
        assert.equal((await listed.run("b", env)).output, "stamped b #1");
        assert.equal((await listed.run("c", env)).output, "stamped c #2");
        assert.equal(stamper.notStarted, false);
        assert.ok(stamper.heapUsed() > 0);
        assert.equal(stamper.restarts, 0, "a first start is not a restart");
        await runtime.dispose();

        // An edit is a new bundle: probed again, its new command listed.
        dir.write({ "home/plugins/stamper/index.js": stamp("seal") });
        ({ runtime, commands } = await start());
        assert.equal(runtime.get("stamper")!.plugin.notStarted, false);
        assert.equal(commands.get("stamp"), undefined);
        assert.equal((await commands.get("seal")!.run("d", env)).output, "stamped d #1");
        await runtime.dispose();
      } finally {
        dir.remove();
      }
    });
  });
}
