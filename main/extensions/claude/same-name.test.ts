/**
 * Claude Code plugins of one name in several places, through the real engine: one copy loads (its
 * command expands, its hook adds its context to a real turn) and the others do nothing, named
 * once in the notes of `islet plugins list`. Which one: the global before a project's, a folder
 * put there by hand before a pack, then the pack installed first.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { startEngineRig } from "../../engine/testing.ts";
import { formatProblem } from "../../host/problem.ts";

const json = (v: unknown) => JSON.stringify(v);

/** A copy of plugin "tidy" under `dir`: a command and a UserPromptSubmit hook naming `who`. */
function tidy(dir: string, who: string): Record<string, string> {
  const output = json({
    hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: `hook of ${who}` },
  });
  return {
    [`${dir}/.claude-plugin/plugin.json`]: json({ name: "tidy" }),
    [`${dir}/commands/go.md`]: `Tidy as ${who}: $ARGUMENTS\n`,
    [`${dir}/hooks/hooks.json`]: json({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `echo '${output}'` }] }],
      },
    }),
  };
}

/** A pack's sidecar, as `islet plugins add` writes it. */
const sidecar = (installedAt: string, added = "") =>
  `url: file:///somewhere.git\ncommit: ${"a".repeat(40)}\ninstalled_at: ${installedAt}\nvendored: true\n${added}`;

async function run(files: Record<string, string>) {
  const rig = await startEngineRig({
    prefix: "islet-same-name-",
    files: { "work/a.txt": "a\n", ...files },
    script: [{ text: ["Tidied."] }],
    plugins: { trustedProject: true },
  });
  try {
    const body = rig.engine.commands.get("tidy:go");
    const { conv } = await rig.open();
    await conv.submit("/tidy:go now");
    const request = JSON.stringify(rig.model.chatRequests[0]?.body);
    const claude = rig.engine.declarative.claudePlugins;
    return {
      command: body?.source === "plugin" ? body.plugin : undefined,
      hooks: ["alpha", "beta", "mine", "project"].filter((w) => request.includes(`hook of ${w}`)),
      expanded: /Tidy as (\w+): now/.exec(request)?.[1],
      rows: (claude?.plugins ?? []).map((p) => `${p.status} ${p.shadowedBy?.where ?? ""}`.trim()),
      notes: (claude?.listNotes ?? []).map(formatProblem),
      warnings: rig.warnings,
      root: rig.dirs.root,
    };
  } finally {
    await rig.close();
  }
}

describe("Claude Code plugins of one name", () => {
  it("of two packs, the one installed first loads: its command and its hook, not the other's", async () => {
    const r = await run({
      "home/plugins/alpha/.origin.yaml": sidecar("2026-02-01T10:00:00.000Z"),
      ...tidy("home/plugins/alpha/plugins/tidy", "alpha"),
      "home/plugins/beta/.origin.yaml": sidecar("2026-01-01T10:00:00.000Z"),
      ...tidy("home/plugins/beta/plugins/tidy", "beta"),
    });
    assert.equal(r.command, "tidy");
    assert.equal(r.expanded, "beta");
    assert.deepEqual(r.hooks, ["beta"]);
    assert.deepEqual(r.rows, ["enabled", "shadowed pack beta"]);
    assert.deepEqual(r.notes, [
      `${r.root}/home/plugins/alpha: 1 plugin of pack alpha does not load: pack beta has one under the same name (tidy); to load pack alpha's instead, islet plugins remove beta`,
    ]);
    assert.deepEqual(r.warnings, [], "nothing said at every start");
  });

  it("a plugin an update brought counts from that update, not from its pack's install", async () => {
    const r = await run({
      "home/plugins/alpha/.origin.yaml": sidecar("2026-02-01T10:00:00.000Z"),
      ...tidy("home/plugins/alpha/plugins/tidy", "alpha"),
      "home/plugins/beta/.origin.yaml": sidecar(
        "2026-01-01T10:00:00.000Z",
        "added_at:\n  tidy: 2026-03-01T10:00:00.000Z\n",
      ),
      ...tidy("home/plugins/beta/plugins/tidy", "beta"),
    });
    assert.equal(r.expanded, "alpha");
    assert.deepEqual(r.hooks, ["alpha"]);
    assert.deepEqual(r.rows, ["enabled", "shadowed pack alpha"]);
  });

  it("a folder put in the global plugins by hand comes before any pack, and a project's copy after the global one", async () => {
    const r = await run({
      "home/plugins/beta/.origin.yaml": sidecar("2026-01-01T10:00:00.000Z"),
      ...tidy("home/plugins/beta/plugins/tidy", "beta"),
      ...tidy("home/plugins/mine", "mine"),
      ...tidy("work/.islet/plugins/tidy", "project"),
    });
    assert.equal(r.expanded, "mine");
    assert.deepEqual(r.hooks, ["mine"]);
    assert.deepEqual(r.rows, [
      "enabled",
      "shadowed the global folder mine",
      "shadowed the global folder mine",
    ]);
    assert.deepEqual(r.notes, [
      `${r.root}/home/plugins/beta: 1 plugin of pack beta does not load: the global folder mine has one under the same name (tidy); rename or remove one of the two copies`,
      `${r.root}/work/.islet/plugins/tidy: 1 plugin of the project's folder tidy does not load: the global folder mine has one under the same name (tidy); rename or remove one of the two copies`,
    ]);
  });
});
