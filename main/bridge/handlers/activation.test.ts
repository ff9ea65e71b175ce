/**
 * The contract's activation calls against a real engine: the caller is asked (question/asked with
 * the consent details), its answer activates, every client hears activation/changed.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { EventPayload, QuestionAsked } from "../contract.ts";
import { openBridgeHost, type BridgeHost } from "../host.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { recordingClient, type RecordingClient } from "../testing.ts";

describe("bridge: activation calls on a real engine", () => {
  let dirs: TempDir;
  let host: BridgeHost;
  let caller: RecordingClient;
  let other: RecordingClient;

  before(async () => {
    dirs = tempDir("islet-bridge-activation-");
    dirs.write({
      "home/plugins/lazy/plugin.yaml": 'description: "Says hi."\nactivation: on-demand\n',
      "home/plugins/lazy/index.ts": "export function beforeChat() {}\n",
      "work/.keep": "",
    });
    host = await openBridgeHost({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      plugins: {},
      host: {
        host: "browser",
        versions: { node: process.versions.node, electron: null, chrome: null },
      },
    });
    caller = recordingClient(host.service);
    other = recordingClient(host.service);
  });

  after(async () => {
    await host.close();
    dirs.remove();
  });

  it("lists on-demand plugins with their status", async () => {
    const { plugins } = (await caller.call("activation/list", undefined)) as {
      plugins: { name: string; status: string; kind: string }[];
    };
    assert.deepEqual(
      plugins.map((p) => [p.name, p.kind, p.status]),
      [["lazy", "code", "inactive"]],
    );
  });

  it("asks the caller alone; Deny leaves it inactive, Allow activates and everyone hears it", async () => {
    const answer = async (a: "allow" | "deny") => {
      const asked = (await caller.next("question/asked")) as QuestionAsked;
      assert.equal(asked.question.kind, "plugin-activation");
      if (asked.question.kind === "plugin-activation")
        assert.match(asked.question.details[0], /^runs sandboxed JavaScript from /);
      await caller.call("question/answer", { id: asked.id, kind: "plugin-activation", answer: a });
    };
    const denied = caller.call("activation/activate", { name: "lazy" });
    await answer("deny");
    assert.equal(((await denied) as { outcome: string }).outcome, "denied");
    assert.deepEqual(other.of("question/asked"), []);

    const allowed = caller.call("activation/activate", { name: "lazy" });
    await answer("allow");
    assert.equal(((await allowed) as { outcome: string }).outcome, "activated");
    const changed = (await other.next("activation/changed")) as EventPayload<"activation/changed">;
    assert.equal(changed.plugins[0].status, "active");

    const off = (await caller.call("activation/deactivate", { name: "lazy" })) as {
      deactivated: boolean;
      plugins: { status: string }[];
    };
    assert.equal(off.deactivated, true);
    assert.equal(off.plugins[0].status, "inactive");
  });
});
