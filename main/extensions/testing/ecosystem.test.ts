/**
 * The generated ecosystem is what the engine really loads: all 300 plugins, every Claude plugin
 * enabled with its commands, skills and agents, every code plugin loaded or listed on demand, and
 * not one problem reported. The same seed writes the same files.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { createEngine } from "../../engine/bootstrap.ts";
import type { Engine } from "../../engine/engine.ts";
import { tempDir, type TempDir } from "../../code-plugins/loader/testing.ts";
import { formatProblem } from "../../host/problem.ts";
import { writeEcosystem, type EcosystemSummary } from "./ecosystem.ts";

describe("the generated ecosystem", () => {
  let dirs: TempDir;
  let engine: Engine;
  let eco: EcosystemSummary;
  const warnings: string[] = [];

  before(async () => {
    dirs = tempDir("islet-ecosystem-");
    dirs.write({ "work/a.txt": "a\n" });
    eco = writeEcosystem(dirs.path("home"), { plugins: 300, seed: 7 });
    engine = await createEngine({
      home: dirs.path("home"),
      workdir: dirs.path("work"),
      env: {},
      plugins: {},
      flags: { provider: "openai-compatible", baseUrl: "http://127.0.0.1:9", model: "m" },
      warn: (p) => warnings.push(formatProblem(p)),
    });
  });

  after(async () => {
    await engine?.close();
    dirs.remove();
  });

  it("holds 300 plugins of every shape", () => {
    assert.equal(eco.names.length, 300);
    assert.equal(new Set(eco.names).size, 300);
    assert.equal(eco.codePlugins.length, 30);
    assert.ok(eco.onDemandPlugins.length > 0);
    assert.deepEqual(eco.marketplaces, ["gen-agents", "gen-official"]);
    assert.ok(eco.commands > 200 && eco.skills > 200 && eco.agents > 200, JSON.stringify(eco));
    assert.ok(eco.hookPlugins > 10 && eco.mcpServers > 5);
    assert.ok(eco.knownSkill.description.length >= 200 && eco.knownSkill.description.length <= 320);
    assert.match(eco.knownSkill.prompt, new RegExp(eco.knownSkill.name.split("-")[1]!));
  });

  it("loads every one of them without a problem", () => {
    assert.deepEqual(warnings, []);
    const claude = engine.declarative.claudePlugins?.plugins ?? [];
    assert.deepEqual(
      claude.map((p) => p.name),
      eco.claudePlugins,
    );
    assert.deepEqual(
      claude.filter((p) => p.status !== "enabled").map((p) => p.name),
      [],
    );
    assert.equal(
      claude.reduce((n, p) => n + p.skills.length, 0),
      eco.skills,
    );
    assert.equal(
      claude.reduce((n, p) => n + p.agents.length, 0),
      eco.agents,
    );
    assert.equal(
      claude.reduce((n, p) => n + p.commands.length, 0),
      eco.commands,
    );
    const loaded = engine.plugins?.names() ?? [];
    const onDemand = engine.activation
      .list()
      .map((e) => e.name)
      .sort();
    assert.deepEqual([...loaded, ...onDemand].sort(), eco.codePlugins);
    assert.deepEqual(onDemand, [...eco.onDemandPlugins].sort());
    assert.ok(engine.agents.get(claude[0]!.agents[0]?.name ?? "default"));
  });

  it("writes the same files for the same seed", () => {
    const again = tempDir("islet-ecosystem-again-");
    try {
      const second = writeEcosystem(again.path("home"), { plugins: 300, seed: 7 });
      assert.deepEqual(second.names, eco.names);
      const skill = (root: string): string =>
        readFileSync(`${root}/gen-agents/.claude-plugin/marketplace.json`, "utf8");
      assert.equal(skill(second.pluginsDir), skill(eco.pluginsDir));
    } finally {
      again.remove();
    }
  });
});
