/**
 * The rule for what a command runs (run-files.ts) and the trusted folder's surface (surface.ts),
 * on real files: the scripts and programs a command names count, data files it names do not, a
 * path written out of the folder does not (a link in it counts as what it leads to), a plugin's
 * scripts count whether named or not, and a
 * workspace is not walked (editing the project's own code asks nothing).
 */
import assert from "node:assert/strict";
import { chmodSync, symlinkSync, writeFileSync } from "node:fs";
import { test } from "node:test";
import { tempDir } from "../code-plugins/loader/testing.ts";
import { changedFiles, namedFiles, runFilesOf } from "./run-files.ts";
import { runnableSurface, surfaceChanges } from "./surface.ts";

test("a command names its program, the file its interpreter runs and script files; not data, not outside", async () => {
  const dirs = tempDir("islet-run-files-");
  dirs.write({
    "plugin/hooks/hook.sh": "echo hi\n",
    "plugin/server": "#!/usr/bin/env node\n",
    "plugin/data.sqlite": "rows",
    "plugin/lib/util.py": "pass\n",
    "outside.sh": "echo out\n",
  });
  symlinkSync(dirs.path("outside.sh"), dirs.path("plugin/escape.sh"));
  const root = dirs.path("plugin");
  try {
    assert.deepEqual(await namedFiles("sh ${CLAUDE_PLUGIN_ROOT}/hooks/hook.sh", root), [
      "hooks/hook.sh",
    ]);
    assert.deepEqual(
      await namedFiles(["node", "{plugin_dir}/server", "--db", "data.sqlite"], root),
      ["server"],
    );
    assert.deepEqual(await namedFiles('python3 "lib/util.py" --x=./data.sqlite', root), [
      "lib/util.py",
    ]);
    assert.deepEqual(await namedFiles("sh ../outside.sh", root), []);
    assert.deepEqual(await namedFiles(["sh", "-c", "python3 lib/util.py > out.txt"], root), [
      "lib/util.py",
    ]);
    assert.deepEqual(await namedFiles(`sh ${dirs.path("outside.sh")}`, root), []);

    // A plugin's folder: every script in it counts, named or not (a hook sources its neighbours).
    const before = await runFilesOf(root, ["sh ${CLAUDE_PLUGIN_ROOT}/hooks/hook.sh"], {
      walk: true,
    });
    assert.deepEqual(Object.keys(before), ["escape.sh", "hooks/hook.sh", "lib/util.py"]);
    writeFileSync(dirs.path("plugin/lib/util.py"), "import os\n");
    writeFileSync(dirs.path("outside.sh"), "echo changed where the link leads\n");
    writeFileSync(dirs.path("plugin/data.sqlite"), "more rows");
    chmodSync(dirs.path("plugin/hooks/hook.sh"), 0o755);
    const after = await runFilesOf(root, ["sh ${CLAUDE_PLUGIN_ROOT}/hooks/hook.sh"], {
      walk: true,
    });
    assert.deepEqual(changedFiles(before, after), ["escape.sh", "hooks/hook.sh", "lib/util.py"]);
  } finally {
    dirs.remove();
  }
});

test("a trusted folder's surface: its project plugins whole, its own code only where a command names it", async () => {
  const dirs = tempDir("islet-surface-");
  dirs.write({
    "home/.keep": "",
    "work/src/app.ts": "export {};\n",
    "work/.mcp.json": JSON.stringify({
      mcpServers: { db: { command: "node", args: ["tools/db.mjs", "--file", "db.json"] } },
    }),
    "work/tools/db.mjs": "// v1\n",
    "work/db.json": "{}",
    "work/.islet/plugins/notes/plugin.yaml": "description: notes\n",
    "work/.islet/plugins/notes/index.ts": "export {};\n",
  });
  const homes = {
    global: dirs.path("home"),
    project: dirs.path("work/.islet"),
    workdir: dirs.path("work"),
  };
  try {
    const trusted = await runnableSurface(homes);
    writeFileSync(dirs.path("work/src/app.ts"), "export const edited = 1;\n");
    writeFileSync(dirs.path("work/db.json"), '{"rows": 3}');
    assert.deepEqual(
      surfaceChanges(trusted, await runnableSurface(homes)),
      [],
      "the project's code and the data a server writes are not what runs",
    );
    writeFileSync(dirs.path("work/tools/db.mjs"), "// v2\n");
    writeFileSync(
      dirs.path("work/.mcp.json"),
      JSON.stringify({
        mcpServers: {
          db: {
            command: "node",
            args: ["tools/db.mjs", "--file", "db.json"],
            env: { NODE_OPTIONS: "--require ./evil.cjs" },
          },
        },
      }),
    );
    writeFileSync(
      dirs.path("work/.islet/plugins/notes/plugin.yaml"),
      'description: notes\npermissions:\n  network: [{ host: x.example, reason: "sync" }]\n',
    );
    assert.deepEqual(surfaceChanges(trusted, await runnableSurface(homes)), [
      "changed since you trusted it: its environment (env:), tools/db.mjs, run by MCP server in .mcp.json (mcpServers.db.command): `node tools/db.mjs --file db.json`",
      "changed since you trusted it: plugin.yaml, run by project plugin .islet/plugins/notes",
    ]);
  } finally {
    dirs.remove();
  }
});
