import assert from "node:assert/strict";
import { test } from "node:test";
import { CommandRegistry } from "./registry.ts";
import type { CommandSource, SlashCommand } from "./types.ts";

function command(name: string, source: CommandSource, label: string = source): SlashCommand {
  return {
    name,
    description: label,
    source,
    run: async () => ({ output: label }),
  };
}

test("built-in > custom > plugin, whatever the order of registration", () => {
  const registry = new CommandRegistry();
  const plugin = registry.register(command("x", "plugin"));
  const builtin = registry.register(command("x", "builtin"));
  const custom = registry.register(command("x", "custom"));
  assert.equal(registry.get("x")?.source, "builtin");
  assert.equal(plugin.serving()?.source, "builtin", "the plugin can tell it is shadowed");
  builtin.dispose();
  assert.equal(registry.get("x")?.source, "custom");
  custom.dispose();
  assert.equal(registry.get("x")?.source, "plugin");
  plugin.dispose();
  assert.equal(registry.get("x"), undefined);
  assert.deepEqual(registry.list(), []);
});

test("within one priority the latest serves; disposing it restores the earlier one exactly", () => {
  const registry = new CommandRegistry();
  registry.register(command("b", "builtin"));
  const first = registry.register(command("a", "plugin", "first"));
  const second = registry.register(command("a", "plugin", "second"));
  assert.equal(registry.get("a")?.description, "second");
  second.dispose();
  second.dispose();
  assert.equal(registry.get("a")?.description, "first");
  assert.deepEqual(
    registry.list().map((c) => c.name),
    ["a", "b"],
  );
  first.dispose();
  assert.deepEqual(
    registry.list().map((c) => c.name),
    ["b"],
  );
});
