/**
 * `packs/*` on a real bridge host with the real pack manager and real git repositories: consent
 * and progress go to the client that asked, and only to it; a client that goes away cancels;
 * the engine's runtime loads, updates and unloads the pack's plugins before the call answers.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { resolveHomes } from "../../config/homes.ts";
import type { QuestionOf } from "../../host/questions.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { packManager } from "../../packs/index.ts";
import {
  gitRepos,
  gitTestEnv,
  pluginFiles,
  startGitDaemon,
  type GitRepos,
  type WorkRepo,
} from "../../packs/testing/git-servers.ts";
import { BridgeError, type QuestionAsked } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import type { CatalogView } from "../schemas/packs.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

const PERMISSIONS =
  'permissions:\n  network: [{ host: api.example.test, reason: "fetches the greeting" }]\n';

describe("bridge: plugin packs on a real engine", { timeout: 120_000 }, () => {
  let dirs: TempDir;
  let repos: GitRepos;
  let greeter: WorkRepo;
  let host: BridgeHost;
  let client: RecordingClient;
  let other: RecordingClient;
  const pluginsDir = () => dirs.path("home", "plugins");

  before(async () => {
    dirs = tempDir("islet-bridge-packs-");
    repos = await gitRepos();
    greeter = await repos.create("islet-plugin-greeter");
    await greeter.commit("greeter v1", pluginFiles("", { name: "greeter", yaml: PERMISSIONS }));
    dirs.write({
      "work/.keep": "",
      "catalog.yaml": `packs:\n  - name: greeter\n    url: ${greeter.fileUrl}\n    tags: [test]\n`,
      "home/settings.json": JSON.stringify({ catalogs: [dirs.path("catalog.yaml")] }),
    });
    const home = dirs.path("home");
    const workdir = dirs.path("work");
    host = await openBridgeHost({
      home,
      workdir,
      plugins: {},
      packs: packManager({ homes: resolveHomes({ home, workdir }), env: gitTestEnv() }),
      catalog: { defaultFile: null },
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
    client = recordingClient(host.service);
    other = recordingClient(host.service);
  });

  after(async () => {
    await host?.close();
    await repos?.close();
    dirs?.remove();
  });

  /** Starts an install in `who` and answers its consent question with `answer`. */
  const install = async (who: RecordingClient, answer: "install" | "cancel") => {
    const call = who.call("packs/install", {
      source: greeter.fileUrl,
      scope: "global",
      operation: `op-${answer}`,
    });
    const asked = (await who.next("question/asked")) as QuestionAsked;
    await who.call("question/answer", { id: asked.id, kind: "pack-install", answer });
    return { result: (await call) as { status: string; pack: { name: string } | null }, asked };
  };

  it("Cancel at the consent question installs nothing", async () => {
    const { result, asked } = await install(client, "cancel");
    assert.equal(result.status, "cancelled");
    assert.equal(asked.question.kind, "pack-install");
    assert.equal(existsSync(path.join(pluginsDir(), "greeter")), false);
    assert.equal(host.engine.plugins?.get("greeter"), undefined);
  });

  it("installs after consent, asked of that client only; the engine loads the plugin at once", async () => {
    other.events.length = 0;
    const { result, asked } = await install(client, "install");
    assert.equal(result.status, "done");
    assert.equal(result.pack?.name, "greeter");
    const q = asked.question as QuestionOf<"pack-install">;
    assert.deepEqual(
      q.plugins.map((p) => [p.name, p.permissions.map((i) => [i.target, i.reason])]),
      [["greeter", [["api.example.test", "fetches the greeting"]]]],
    );
    // Progress and the question went to the client that asked, never to the other one.
    const progress = client.of("packs/progress") as { operation: string; phase: string }[];
    assert.ok(progress.some((p) => p.operation === "op-install" && p.phase === "cloning"));
    assert.deepEqual(other.of("packs/progress"), []);
    assert.deepEqual(other.of("question/asked"), []);
    // Loaded live, announced to everyone.
    assert.equal(host.engine.plugins?.get("greeter")?.plugin.status, "active");
    assert.ok(
      (other.of("plugins/changed") as { cause: string }[]).some((e) => e.cause === "packs"),
    );
    const view = (await client.call("catalog/list", undefined)) as CatalogView;
    assert.equal(view.packs[0].installed?.name, "greeter");
    assert.equal(view.packs[0].installed?.origin?.commit, await greeter.head());
  });

  it("updates: shows the commits and files, then swaps the new version in live", async () => {
    const before = await greeter.head();
    await greeter.commit("Say it differently", {
      "plugin.yaml": `description: "greeter, second version"\n${PERMISSIONS}`,
    });
    const call = client.call("packs/update", { name: "greeter" });
    const asked = (await client.next("question/asked")) as QuestionAsked;
    const q = asked.question as QuestionOf<"pack-update">;
    assert.equal(q.kind, "pack-update");
    assert.deepEqual(
      q.commits.map((c) => c.subject),
      ["Say it differently"],
    );
    assert.deepEqual(q.files, [{ path: "plugin.yaml", change: "modified" }]);
    await client.call("question/answer", { id: asked.id, kind: "pack-update", answer: "update" });
    const result = (await call) as { status: string; changed: boolean; from: string; to: string };
    assert.deepEqual(
      [result.status, result.changed, result.from, result.to],
      ["done", true, before, await greeter.head()],
    );
    assert.equal(host.engine.plugins?.get("greeter")?.spec.description, "greeter, second version");
  });

  it("a client that goes away while asked cancels; nothing more is installed", async () => {
    await greeter.commit("A third version", { "README.md": "hello\n" });
    const leaving = recordingClient(host.service);
    const call = leaving.call("packs/update", { name: "greeter" }).catch((e: unknown) => e);
    await leaving.next("question/asked");
    leaving.close();
    await call;
    // The update was cancelled: a new one from another client is asked again (nothing was
    // swapped in, and the pack is not left busy).
    const again = client.call("packs/update", { name: "greeter" });
    const asked = (await client.next("question/asked")) as QuestionAsked;
    assert.equal((asked.question as QuestionOf<"pack-update">).commits.length, 1);
    await client.call("question/answer", { id: asked.id, kind: "pack-update", answer: "cancel" });
    assert.equal(((await again) as { status: string }).status, "cancelled");
  });

  it("removes: the plugin unloads at once", async () => {
    const result = (await client.call("packs/remove", { name: "greeter" })) as {
      status: string;
    };
    assert.equal(result.status, "done");
    assert.equal(host.engine.plugins?.get("greeter"), undefined);
    assert.equal(existsSync(path.join(pluginsDir(), "greeter")), false);
  });

  it("an install that fails is one line, and asks nothing", async () => {
    const asked = client.of("question/asked").length;
    const err = await client
      .call("packs/install", { source: `${greeter.fileUrl}-missing`, scope: "global" })
      .then(
        () => assert.fail("expected a failure"),
        (e: unknown) => e,
      );
    assert.ok(err instanceof BridgeError);
    assert.ok(!err.problem.title.includes("\n"));
    assert.match(err.problem.title, /islet-plugin-greeter\.git-missing/);
    assert.equal(client.of("question/asked").length, asked);
    assert.equal(existsSync(path.join(pluginsDir(), "islet-plugin-greeter.git-missing")), false);
  });

  it("a Claude Code marketplace loads and unloads with its pack; its card lists its entries from other repositories; installing one asks for its own source and names the marketplace", async () => {
    await using daemon = await startGitDaemon(repos.served);
    const far = await repos.create("far", {
      ".claude-plugin/plugin.json": JSON.stringify({ name: "far" }),
      "commands/far.md": "Far away\n",
    });
    const market = await repos.create("market", {
      ".claude-plugin/marketplace.json": JSON.stringify({
        name: "market",
        plugins: [
          { name: "near", source: "./near" },
          {
            name: "far",
            description: "Elsewhere",
            source: { source: "url", url: daemon.url("far") },
          },
        ],
      }),
      "near/commands/near.md": "Near\n",
    });
    const answer = async (call: Promise<unknown>) => {
      const asked = (await client.next("question/asked")) as QuestionAsked;
      await client.call("question/answer", {
        id: asked.id,
        kind: "pack-install",
        answer: "install",
      });
      await call;
      return asked.question as QuestionOf<"pack-install">;
    };
    const mq = await answer(
      client.call("packs/install", { source: market.fileUrl, scope: "global", operation: "op-m" }),
    );
    assert.deepEqual(mq.remote, [
      { name: "far", description: "Elsewhere", source: daemon.url("far") },
    ]);
    // Its own plugin loads before the call answers, as a code plugin does: command and card.
    assert.equal(host.engine.commands.get("near:near")?.source, "plugin");
    const listed = (await client.call("plugins/list", undefined)) as {
      extensions: { name: string; status: string }[];
    };
    assert.ok(listed.extensions.some((e) => e.name === "near" && e.status === "active"));
    const view = (await client.call("catalog/list", undefined)) as CatalogView;
    const card = view.others.find((p) => p.name === "market");
    assert.deepEqual(
      card?.remote?.map((r) => r.name),
      ["far"],
    );

    const q = await answer(
      client.call("packs/install", {
        source: "market",
        plugin: "far",
        scope: "global",
        operation: "op-far",
      }),
    );
    assert.equal(q.source, daemon.url("far"));
    assert.equal(q.listedBy, market.fileUrl);
    assert.equal(await far.head(), q.commit);
    assert.ok(existsSync(path.join(pluginsDir(), "far", "commands", "far.md")));
    assert.equal(host.engine.commands.get("far:far")?.source, "plugin");

    // Removed: its plugins unload at once.
    await client.call("packs/remove", { name: "market" });
    assert.equal(host.engine.commands.get("near:near"), undefined);
    assert.equal(host.engine.commands.get("far:far")?.source, "plugin", "far stays");
  });
});
