/** The agents registry reads as a map that follows every contribution added or removed. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { DEFAULT_AGENT, type AgentConfig } from "./definition.ts";
import { AgentRegistry } from "./registry.ts";

const agent = (name: string, description = name): AgentConfig => ({
  ...DEFAULT_AGENT,
  name,
  description,
});

test("its listing is kept between reads and follows an agent added, shadowed or removed", () => {
  const agents = new AgentRegistry();
  agents.add(DEFAULT_AGENT, "builtin");
  const first = [...agents.values()];
  assert.deepEqual(
    first.map((a) => a.name),
    ["default"],
  );
  const before = agents.version;
  const reviewer = agents.add(agent("reviewer"), "extension");
  assert.notEqual(agents.version, before);
  assert.deepEqual([...agents.keys()], ["default", "reviewer"]);
  // A file in the home shadows the plugin's agent of the same name, and removing it restores it.
  const mine = agents.add(agent("reviewer", "mine"), "config");
  assert.equal(agents.get("reviewer")?.description, "mine");
  assert.equal([...agents.values()].find((a) => a.name === "reviewer")?.description, "mine");
  mine.dispose();
  assert.equal([...agents.values()].find((a) => a.name === "reviewer")?.description, "reviewer");
  reviewer.dispose();
  assert.deepEqual([...agents.keys()], ["default"]);
  assert.equal(agents.size, 1);
});
