import assert from "node:assert/strict";
import { test } from "node:test";
import { HOOK_TIMING_TABLE, hookPhases, HookTimingSchema } from "./hook-timings.ts";

test("hook timings: one row per timing, and each under exactly one phase heading", () => {
  const timings = HookTimingSchema.options;
  assert.deepEqual(Object.keys(HOOK_TIMING_TABLE).sort(), [...timings].sort());
  const phases = hookPhases();
  assert.deepEqual(phases.flatMap((p) => p.hooks).sort(), [...timings].sort());
  assert.equal(new Set(phases.map((p) => p.label)).size, phases.length);
  assert.deepEqual(phases[0], {
    label: "Before the model",
    hooks: ["beforeChat", "transformMessages"],
  });
});
