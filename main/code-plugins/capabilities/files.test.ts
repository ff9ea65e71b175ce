import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { PluginFiles, pluginDataDir } from "./files.ts";

describe("plugin file API", () => {
  let base: string;
  let workdir: string;
  let pluginDir: string;
  let outside: string;
  let home: string;
  let dataDir: string;
  let files: PluginFiles;

  before(() => {
    // realpath: on macOS the temp dir itself sits behind a symlink.
    base = mkdtempSync(path.join(os.tmpdir(), "islet-files-"));
    workdir = path.join(base, "work");
    home = path.join(base, "home");
    pluginDir = path.join(home, "plugins", "notes");
    dataDir = path.join(home, "plugin-data", "notes");
    outside = path.join(base, "outside");
    for (const dir of [workdir, pluginDir, outside, path.join(base, "ro"), path.join(base, "rw")]) {
      mkdirSync(dir, { recursive: true });
    }
    mkdirSync(path.join(workdir, "sub", "dir"), { recursive: true });
    writeFileSync(path.join(workdir, "a.txt"), "alpha");
    writeFileSync(path.join(pluginDir, "state.json"), "{}");
    writeFileSync(path.join(outside, "secret.txt"), "secret");
    writeFileSync(path.join(base, "ro", "data.txt"), "read me");
    symlinkSync(path.join(outside, "secret.txt"), path.join(workdir, "link-to-secret"));
    symlinkSync(outside, path.join(workdir, "link-to-outside"));
    symlinkSync(path.join(outside, "new.txt"), path.join(workdir, "dangling"));
    symlinkSync(path.join(workdir, "a.txt"), path.join(workdir, "inner-link"));
    files = new PluginFiles({
      plugin: "notes",
      workdir,
      pluginDir,
      dataDir,
      protected: { globalHome: home, pluginDirs: [path.join(home, "plugins")], secretFiles: [] },
      grants: [
        { path: path.join(base, "ro"), reason: "reference data" },
        { path: path.join(base, "rw"), reason: "reports", write: true },
      ],
      limits: { maxFileBytes: 1024 },
    });
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  test("reads the workspace and its own folder; writes only its data folder", async () => {
    assert.equal(await files.readFile("a.txt"), "alpha");
    assert.equal(await files.readFile(path.join(pluginDir, "state.json")), "{}");
    assert.equal(files.dataDir, dataDir);
    await files.writeFile(path.join(dataDir, "sub/new.txt"), "one");
    await files.appendFile(path.join(dataDir, "sub/new.txt"), "+two");
    assert.equal(readFileSync(path.join(dataDir, "sub/new.txt"), "utf8"), "one+two");
    assert.equal(await files.readFile(path.join(dataDir, "sub/new.txt")), "one+two");
    await assert.rejects(
      files.writeFile("sub/dir/new.txt", "x"),
      /^Error: plugin notes cannot write sub\/dir\/new\.txt: the workspace is read-only to plugins; write to the plugin's data folder \(fs\.dataDir\)/,
    );
    await assert.rejects(
      files.writeFile(path.join(pluginDir, "state.json"), '{"n":1}'),
      /cannot write .*state\.json: plugin folders are never writable by plugins/,
    );
    assert.equal(await files.readFile("inner-link"), "alpha", "links that stay inside are fine");
  });

  test("readdir, stat and exists", async () => {
    assert.deepEqual(await files.readdir("sub"), ["dir"]);
    const info = await files.stat("a.txt");
    assert.deepEqual(
      { ...info, mtime: typeof info.mtime },
      { isFile: true, isDirectory: false, size: 5, mtime: "string" },
    );
    assert.equal(await files.exists("a.txt"), true);
    assert.equal(await files.exists("missing.txt"), false);
    await assert.rejects(
      files.readFile("missing.txt"),
      /^Error: no such file or directory: missing\.txt$/,
    );
  });

  test("`..` cannot leave the allowed roots", async () => {
    await assert.rejects(
      files.readFile("../outside/secret.txt"),
      /plugin notes cannot read \.\.\/outside\/secret\.txt: it is outside the workspace and the plugin's folders \(ask for it in plugin\.yaml permissions\.paths with a reason; the user is asked to grant it\)/,
    );
    await assert.rejects(
      files.writeFile("../outside/x.txt", "x"),
      /cannot write .*outside the workspace/,
    );
    await assert.rejects(files.exists("/etc"), /cannot read \/etc/);
  });

  test("symlinks cannot leave the allowed roots, for reads or writes", async () => {
    await assert.rejects(
      files.readFile("link-to-secret"),
      /cannot read link-to-secret: it is outside/,
    );
    await assert.rejects(files.readFile("link-to-outside/secret.txt"), /outside/);
    await assert.rejects(files.writeFile("link-to-outside/new.txt", "x"), /cannot write .*outside/);
    await assert.rejects(files.writeFile("link-to-secret", "x"), /cannot write .*outside/);
    await assert.rejects(files.writeFile("dangling", "x"), /symbolic link to a missing target/);
    assert.equal(readFileSync(path.join(outside, "secret.txt"), "utf8"), "secret");
  });

  test("granted paths: read-only unless write is granted", async () => {
    assert.equal(await files.readFile(path.join(base, "ro", "data.txt")), "read me");
    await assert.rejects(
      files.writeFile(path.join(base, "ro", "data.txt"), "x"),
      /plugin notes cannot write .*data\.txt: permissions\.paths .*ro is read-only to plugins; add write: true to it in plugin\.yaml/,
    );
    await files.writeFile(path.join(base, "rw", "report.md"), "# ok");
    assert.equal(readFileSync(path.join(base, "rw", "report.md"), "utf8"), "# ok");
  });

  test("size caps on reads and writes; directories are not files", async () => {
    writeFileSync(path.join(workdir, "big.txt"), "x".repeat(2048));
    await assert.rejects(
      files.readFile("big.txt"),
      /big\.txt is larger than the 0 MB the file API reads/,
    );
    await assert.rejects(files.writeFile("big2.txt", "x".repeat(2048)), /larger than/);
    await assert.rejects(files.readFile("sub"), /sub is not a file/);
    mkdirSync(path.join(dataDir, "folder"), { recursive: true });
    await assert.rejects(
      files.writeFile(path.join(dataDir, "folder"), "x"),
      /folder: is a directory/,
    );
  });

  test("self-escalation: no grant reaches .islet/, .git/, the global home or a plugin folder", async () => {
    // Everything a plugin would write to give itself more: unsafe mode, a planted plugin with
    // exec, its own manifest, a git hook, the grant and trust records.
    const planted = [
      ".islet/config/features/plugins.yaml",
      ".islet/plugins/evil/plugin.yaml",
      ".git/hooks/pre-commit",
      "vendor/lib/.git/hooks/post-checkout",
      path.join(pluginDir, "plugin.yaml"),
      path.join(home, "plugins", "other", "index.js"),
      path.join(home, "grants.json"),
      path.join(home, "trust.json"),
      path.join(home, "plugin-data", "other", "state.json"),
    ];
    mkdirSync(path.join(workdir, ".git", "hooks"), { recursive: true });
    symlinkSync(path.join(workdir, ".git", "hooks"), path.join(workdir, "hooks-link"));
    const greedy = new PluginFiles({
      plugin: "greedy",
      workdir,
      pluginDir,
      dataDir,
      protected: { globalHome: home, pluginDirs: [path.join(home, "plugins")], secretFiles: [] },
      grants: [
        { path: "/", write: true, reason: "everything" },
        { path: workdir, write: true, reason: "the workspace" },
      ],
    });
    for (const p of [...planted, "hooks-link/pre-push"]) {
      await assert.rejects(greedy.writeFile(p, "id > /tmp/pwned"), /never writable by plugins/, p);
      await assert.rejects(greedy.appendFile(p, "x"), /never writable by plugins/, p);
    }
    for (const p of planted) assert.equal(existsSync(path.resolve(workdir, p)), false, p);
    // The workspace grant itself works for ordinary files.
    await greedy.writeFile("src/ok.txt", "fine");
    assert.equal(readFileSync(path.join(workdir, "src/ok.txt"), "utf8"), "fine");
    // Its own data folder is writable although it lives in the global home.
    await greedy.writeFile(path.join(dataDir, "state.json"), "{}");
  });

  test("no grant writes what Islet runs or reads as configuration, whatever the path's spelling", async () => {
    // A workspace write grant would otherwise plant `.mcp.json` (its command runs once the folder
    // is trusted), `secrets.env` (the environment of every server and hook) or Claude Code's hooks.
    mkdirSync(path.join(workdir, "docs"), { recursive: true });
    symlinkSync(workdir, path.join(workdir, "docs", "up"));
    symlinkSync(path.join(workdir, ".mcp.json"), path.join(workdir, "mcp-link.json"));
    const planter = new PluginFiles({
      plugin: "planter",
      workdir,
      pluginDir,
      dataDir,
      protected: {
        globalHome: home,
        pluginDirs: [],
        secretFiles: [path.join(base, "keys", "my.env")],
      },
      grants: [
        { path: ".", write: true, reason: "the workspace" },
        { path: path.join(base, "keys"), write: true, reason: "a folder holding the env file" },
      ],
    });
    const attempts = [
      ".mcp.json",
      "./.mcp.json",
      "sub/../.mcp.json",
      "sub/dir/../../.mcp.json",
      path.join(workdir, ".mcp.json"),
      ".MCP.JSON",
      ".mcp.json.",
      ".mcp.json::$DATA",
      "docs/up/.mcp.json",
      "mcp-link.json",
      "secrets.env",
      "Secrets.Env",
      "\u017Fecrets.env",
      path.join(base, "keys", "my.env"),
      ".claude/settings.json",
      ".claude/hooks/pre.sh",
      ".Claude/commands/x.md",
      ".claude/agents/a.md",
      ".claude/skills/s/SKILL.md",
      ".islet/config/mcp/spy.yaml",
      ".ISLET/config/hooks/h.json",
      ".islet./config/runner-configs.json",
      ".islet/plugins/x/plugin.yaml",
      ".Git/hooks/pre-commit",
      "sub/.claude/settings.local.json",
    ];
    // A dangling link to `.mcp.json` is refused as a link (writes never follow links).
    const refused = /never writable by plugins|symbolic link to a missing target/;
    for (const p of attempts) {
      await assert.rejects(planter.writeFile(p, "{}"), refused, p);
      await assert.rejects(planter.appendFile(p, "{}"), refused, p);
    }
    // A folder first, then a file inside it: the folder's name is refused either way.
    await assert.rejects(planter.writeFile(".claude/", "x"), /never writable by plugins/);
    await assert.rejects(planter.writeFile(".mcp.json/", "x"), /never writable by plugins/);
    for (const p of [".mcp.json", "secrets.env", ".claude", ".islet", ".MCP.JSON", "Secrets.Env"])
      assert.equal(existsSync(path.join(workdir, p)), false, p);
    assert.equal(existsSync(path.join(base, "keys", "my.env")), false);
    const refusal = await planter.writeFile(".mcp.json", "{}").then(
      () => "",
      (err: Error) => err.message,
    );
    assert.equal(
      refusal,
      "plugin planter cannot write .mcp.json: .mcp.json is never writable by plugins (it holds MCP servers Islet starts)",
    );
    // Names that only look alike are ordinary files.
    await planter.writeFile("notes/mcp.json", "{}");
    await planter.writeFile("claude.md", "x");
    await planter.writeFile(path.join(base, "keys", "other.txt"), "x");
  });

  test("the global home and env files are not readable; the plugin's own folder is", async () => {
    mkdirSync(path.join(home, "sessions"), { recursive: true });
    writeFileSync(path.join(home, "sessions", "s.jsonl"), "{}");
    writeFileSync(path.join(workdir, "secrets.env"), "OPENAI_API_KEY=sk-secret");
    const reader = new PluginFiles({
      plugin: "reader",
      workdir,
      pluginDir,
      dataDir,
      protected: {
        globalHome: home,
        pluginDirs: [],
        secretFiles: [path.join(workdir, "secrets.env")],
      },
      grants: [{ path: "/", reason: "read everything" }],
    });
    await assert.rejects(
      reader.readFile(path.join(home, "sessions", "s.jsonl")),
      /cannot read .*s\.jsonl: Islet's global home .* is not readable by plugins/,
    );
    await assert.rejects(reader.readFile("secrets.env"), /env files hold API keys/);
    assert.equal(await reader.readFile(path.join(pluginDir, "state.json")), "{}");
  });

  test("a data folder is always a folder of its own under plugin-data/", () => {
    assert.equal(pluginDataDir("/h", "notes"), path.join("/h", "plugin-data", "notes"));
    for (const bad of ["../config", "a/b", "..", ".", "x\\..\\y"])
      assert.throws(() => pluginDataDir("/h", bad), /cannot name a plugin data folder/, bad);
  });
});
