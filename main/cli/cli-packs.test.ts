/** `islet plugins add|update|remove` and the origin in `list`/`show`, as a person runs them. */
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import {
  gitRepos,
  packFiles,
  pluginFiles,
  startGitDaemon,
  startGitHttp,
  type GitHttpServer,
  type GitRepos,
} from "../packs/testing/git-servers.ts";
import { BIN, islet, tempDirs } from "./testing/islet.ts";

let repos: GitRepos;
let http: GitHttpServer;
before(async () => {
  repos = await gitRepos();
  http = await startGitHttp(repos.served, { token: "cli-token-1" });
});
after(async () => {
  await http.close();
  await repos.close();
});

/** A throwaway workspace and home, and a git setup without the machine's own config. */
async function setup() {
  const dirs = await tempDirs();
  const user = path.join(dirs.root, "user");
  await mkdir(user, { recursive: true });
  await writeFile(path.join(user, ".gitconfig"), "");
  const env = {
    HOME: user,
    GIT_CONFIG_GLOBAL: path.join(user, ".gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
  };
  const run = (args: string[], more: Record<string, string> = {}) =>
    islet([...args, "--home", dirs.home, "--workdir", dirs.workdir], { ...env, ...more });
  return { dirs, env, run, projectPlugins: path.join(dirs.workdir, ".islet", "plugins") };
}

test("add with --yes, then list and show carry the origin; update prints the changes; remove", async () => {
  const { dirs, run, projectPlugins } = await setup();
  try {
    const repo = await repos.create("islet-plugin-cli-tools", packFiles(2, "tool"));
    const added = await run(["plugins", "add", repo.fileUrl, "--yes"]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(
      added.stdout,
      /^Installed cli-tools \(2 plugins: tool1, tool2\) from file:.* into .*\.islet\/plugins\/cli-tools\n$/,
    );
    assert.match(
      added.stderr,
      /Install cli-tools from file:.* into the workspace's plugins:\n {2}tool1 — tool1 test plugin/,
    );
    assert.match(added.stderr, /\(accepted with --yes\)/);

    const list = await run(["plugins", "list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.match(
      list.stdout,
      new RegExp(
        `Packs:\\n {2}cli-tools {2}project {2}file:.* at ${(await repo.head()).slice(0, 12)}, installed \\d{4}-\\d\\d-\\d\\d — tool1, tool2`,
      ),
    );
    const json = JSON.parse((await run(["plugins", "list", "--json"])).stdout) as {
      packs: { name: string; origin: { commit: string } }[];
    };
    assert.equal(json.packs.find((p) => p.name === "cli-tools")?.origin.commit, await repo.head());
    const show = await run(["plugins", "show", "tool1"]);
    assert.match(
      show.stdout,
      /Pack: {8}cli-tools \(with 1 more\)\nOrigin: {6}file:.*\nCommit: {6}[0-9a-f]{40}\nInstalled: {3}\d{4}-/,
    );
    const showJson = JSON.parse((await run(["plugins", "show", "tool1", "--json"])).stdout) as {
      pack: { name: string; origin: { url: string } };
    };
    assert.equal(showJson.pack.origin.url, repo.fileUrl);

    await repo.commit("Better tool2", pluginFiles("tool2", { version: "2" }));
    const updated = await run(["plugins", "update", "tool1"]); // no terminal, no --yes: nothing new to grant
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(
      updated.stdout,
      /1 commit:\n {4}[0-9a-f]{8} Better tool2 \(Test Author\)\n {2}1 file changed:\n {4}modified tool2\/index\.ts\nUpdated cli-tools from [0-9a-f]{12} to [0-9a-f]{12}\n/,
    );
    assert.match((await run(["plugins", "update", "--all"])).stdout, /cli-tools is up to date/);

    const partial = await run(["plugins", "remove", "tool1"]);
    assert.equal(partial.code, 1);
    assert.match(
      partial.stderr,
      /^islet: "tool1" is one of the 2 plugins of pack cli-tools .*disabled: true.*\n$/,
    );
    const removed = await run(["plugins", "remove", "cli-tools"]);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /^Removed cli-tools \(tool1, tool2\) from /);
    assert.deepEqual(await readdir(projectPlugins), []);
  } finally {
    await dirs.clean();
  }
});

test("without a terminal and without --yes, an install (and an update asking for more) is refused in one line", async () => {
  const { dirs, run, projectPlugins } = await setup();
  try {
    const repo = await repos.create("asks", pluginFiles("", { name: "asks" }));
    const refused = await run(["plugins", "add", repo.fileUrl, "--global"]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /\nislet: asks: installing it needs your consent: run this at a terminal, or pass --yes to accept what it asks for\n$/,
    );
    assert.deepEqual(await readdir(path.join(dirs.home, "plugins")), []);

    assert.equal((await run(["plugins", "add", repo.fileUrl, "--yes"])).code, 0);
    await repo.commit(
      "Wants the network",
      pluginFiles("", {
        name: "asks",
        yaml: 'permissions:\n  network: [{ host: x.example.com, reason: "fetch" }]\n',
      }),
    );
    const more = await run(["plugins", "update", "asks"]);
    assert.equal(more.code, 1);
    assert.match(more.stderr, /new: network x\.example\.com — fetch/);
    assert.match(
      more.stderr,
      /islet: asks: this update asks for more permissions or changes what runs, and needs your consent/,
    );
    const yes = await run(["plugins", "update", "asks", "--yes"]);
    assert.equal(yes.code, 0, yes.stderr);
    assert.deepEqual(await readdir(projectPlugins), ["asks"]);
  } finally {
    await dirs.clean();
  }
});

test(
  "a terminal asks; answering no installs nothing, yes installs",
  {
    skip:
      spawnSync("script", ["--version"]).status !== 0 && "no `script` to give the CLI a terminal",
  },
  async () => {
    const { dirs, env } = await setup();
    try {
      const repo = await repos.create("tty-pack", pluginFiles("", { name: "tty-pack" }));
      const atTerminal = (answer: string) =>
        new Promise<string>((resolve) => {
          const cmd = [
            process.execPath,
            "--no-node-snapshot",
            BIN,
            "plugins",
            "add",
            repo.fileUrl,
            "--home",
            dirs.home,
            "--workdir",
            dirs.workdir,
          ]
            .map((a) => `'${a}'`)
            .join(" ");
          const child = execFile(
            "script",
            ["-qec", cmd, "/dev/null"],
            { env: { ...process.env, ...env, NO_COLOR: "1" }, timeout: 60_000 },
            (_e, stdout) => resolve(stdout),
          );
          // Answer once the prompt is there.
          let seen = "";
          let answered = false;
          child.stdin!.on("error", () => undefined); // the terminal may close first
          child.stdout!.on("data", (c: Buffer) => {
            seen += c.toString();
            if (answered || !seen.includes("Install? [y]es / [n]o")) return;
            answered = true;
            child.stdin!.write(`${answer}\n`);
          });
        });
      const no = await atTerminal("n");
      assert.match(no, /Install tty-pack from file:/);
      assert.match(no, /tty-pack was not installed: the install was not accepted/);
      const yes = await atTerminal("y");
      assert.match(yes, /Installed tty-pack/);
    } finally {
      await dirs.clean();
    }
  },
);

test("tokens from the environment reach git but never the output; bad input is one line and the rest still loads", async () => {
  const { dirs, run } = await setup();
  try {
    await repos.create("private-cli", pluginFiles("", { name: "private-cli" }));
    const denied = await run(["plugins", "add", http.url("private-cli"), "--yes"], {
      GIT_TOKEN: "not-the-token",
    });
    assert.equal(denied.code, 1);
    assert.match(
      denied.stderr,
      /^islet: cannot clone http:.* \(tried no credentials, GIT_TOKEN, git credential fill\)/,
    );
    assert.doesNotMatch(denied.stderr + denied.stdout, /not-the-token/);
    const ok = await run(["plugins", "add", http.url("private-cli"), "--yes"], {
      GIT_TOKEN: "cli-token-1",
    });
    assert.equal(ok.code, 0, ok.stderr);
    assert.doesNotMatch(ok.stderr + ok.stdout, /cli-token-1/);

    const bad = await run(["plugins", "add", "https://example.com/", "--yes"]);
    assert.equal(bad.code, 1);
    assert.equal(bad.stderr.trim().split("\n").length, 1);
    const list = await run(["plugins", "list", "--json"]);
    const parsed = JSON.parse(list.stdout) as { plugins: { name: string }[]; problems: unknown[] };
    assert.deepEqual(
      parsed.plugins.map((p) => p.name),
      ["private-cli"],
    );
    assert.deepEqual(parsed.problems, []);
  } finally {
    await dirs.clean();
  }
});

test("bad usage is exit 2", async () => {
  const { dirs, run } = await setup();
  try {
    for (const args of [
      ["plugins", "add"],
      ["plugins", "update"],
      ["plugins", "update", "x", "--all"],
      ["plugins", "add", "x/y", "--force"],
      ["plugins", "remove", "a", "b"],
      ["plugins", "add", "x/y", "--bogus"],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split("\n").length, 1);
    }
  } finally {
    await dirs.clean();
  }
});

test("each plugins subcommand parses its own options (permissions --reset reaches its command)", async () => {
  const { dirs, run } = await setup();
  try {
    const reset = await run(["plugins", "permissions", "nothing", "--reset"]);
    assert.equal(reset.code, 0, reset.stderr);
    assert.match(reset.stdout, /No answers recorded for nothing/);
  } finally {
    await dirs.clean();
  }
});

test("a git repository given as a folder installs as git: its origin is kept and update pulls", async () => {
  const { dirs, run } = await setup();
  try {
    const repo = await repos.create("islet-plugin-local-work", packFiles(1, "local"));
    const added = await run(["plugins", "add", repo.dir, "--yes"]);
    assert.equal(added.code, 0, added.stderr);
    const show = await run(["plugins", "show", "local1"]);
    assert.match(show.stdout, /Origin: {6}file:\/\/.*islet-plugin-local-work\n/);
    assert.doesNotMatch(show.stdout, /copied from a folder/);

    await repo.commit("Local change", pluginFiles("local1", { version: "2" }));
    const updated = await run(["plugins", "update", "local-work"]);
    assert.equal(updated.code, 0, updated.stderr);
    assert.match(updated.stdout, /Local change \(Test Author\)[\s\S]*Updated local-work from/);
  } finally {
    await dirs.clean();
  }
});

test("attack: without a terminal and without --yes, an update that changes only a hook's script is not applied", async () => {
  const { dirs, run, projectPlugins } = await setup();
  try {
    const hook = "sh ${CLAUDE_PLUGIN_ROOT}/hooks/hook.sh";
    const repo = await repos.create("hooked", {
      ".claude-plugin/plugin.json": JSON.stringify({ name: "hooked" }),
      "hooks/hooks.json": JSON.stringify({
        hooks: { Stop: [{ hooks: [{ type: "command", command: hook }] }] },
      }),
      "hooks/hook.sh": "echo approved\n",
    });
    assert.equal((await run(["plugins", "add", repo.fileUrl, "--yes"])).code, 0);
    const script = path.join(projectPlugins, "hooked", "hooks", "hook.sh");
    await repo.commit("Swap the script", { "hooks/hook.sh": "echo swapped\n" });
    const refused = await run(["plugins", "update", "hooked"]);
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      /new: run the command `sh \$\{CLAUDE_PLUGIN_ROOT\}\/hooks\/hook\.sh` — hooks\/hook\.sh, which it runs, changed in this update/,
    );
    assert.match(
      refused.stderr,
      /\nislet: hooked: this update asks for more permissions or changes what runs, and needs your consent: run this at a terminal, or pass --yes to accept what it asks for\n$/,
    );
    assert.equal(await readFile(script, "utf8"), "echo approved\n", "not applied");
    const yes = await run(["plugins", "update", "hooked", "--yes"]);
    assert.equal(yes.code, 0, yes.stderr);
    assert.equal(await readFile(script, "utf8"), "echo swapped\n");
  } finally {
    await dirs.clean();
  }
});

test("add MARKETPLACE --plugin NAME installs what a Claude Code marketplace lists from another repository, asking for that repository", async () => {
  const { dirs, run } = await setup();
  await using daemon = await startGitDaemon(repos.served);
  try {
    await repos.create("cli-far", {
      ".claude-plugin/plugin.json": JSON.stringify({ name: "far" }),
      "commands/far.md": "Far away\n",
    });
    const market = await repos.create("cli-market", {
      ".claude-plugin/marketplace.json": JSON.stringify({
        name: "cli-market",
        plugins: [{ name: "far", source: { source: "url", url: daemon.url("cli-far") } }],
      }),
    });
    const whole = await run(["plugins", "add", market.fileUrl, "--yes"]);
    assert.notEqual(whole.code, 0);
    assert.match(
      whole.stderr,
      /lists only plugins from other repositories: install one with --plugin NAME \(far\)/,
    );
    const added = await run(["plugins", "add", market.fileUrl, "--plugin", "far", "--yes"]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(
      added.stdout,
      /^Installed far \(1 plugin: far\) from git:\/\/127\.0\.0\.1:\d+\/cli-far\.git/,
    );
    assert.match(
      added.stderr,
      /The Claude Code marketplace file:.*cli-market\.git lists it\.\nInstall far from git:/,
    );
    const wrong = await run(["plugins", "update", "far", "--plugin", "x"]);
    assert.match(wrong.stderr, /plugins update: --plugin does not apply/);
  } finally {
    await dirs.clean();
  }
});
