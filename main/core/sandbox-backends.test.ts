// The backend table drives every place that names sandbox backends: the bridge's schemas, the
// features file and the factory cover exactly its rows.
import assert from "node:assert/strict";
import { test } from "node:test";
import { SandboxBackend } from "../bridge/contract.ts";
import { SettingsSet } from "../bridge/schemas/settings.ts";
import { parseFeaturesLayer } from "../code-plugins/loader/features.ts";
import { formatProblem } from "../host/problem.ts";
import { createSandbox, SANDBOX_BACKENDS } from "../sandbox/backends.ts";
import {
  SANDBOX_BACKEND_CHOICES,
  SANDBOX_BACKEND_NAMES,
  SANDBOX_BACKEND_TABLE,
} from "./sandbox-backends.ts";

const names = Object.keys(SANDBOX_BACKEND_TABLE);

test("sandbox backends: the schemas, the features file and the factory take exactly the table's backends", () => {
  assert.deepEqual(SANDBOX_BACKEND_NAMES, names);
  assert.deepEqual(SANDBOX_BACKENDS, names);
  assert.deepEqual(SandboxBackend.shape.name.options, names);
  assert.deepEqual(SettingsSet.request.shape.pluginRuntime.unwrap().options, ["auto", ...names]);
  for (const name of SANDBOX_BACKEND_NAMES) {
    assert.equal(parseFeaturesLayer(`plugins:\n  runtime: ${name}\n`, "f").layer.runtime, name);
    assert.equal(createSandbox(name).backend, name);
  }
  const wrong = formatProblem(parseFeaturesLayer("plugins:\n  runtime: v8\n", "f").errors[0]);
  assert.equal(wrong, `f: plugins.runtime: expected ${SANDBOX_BACKEND_CHOICES}, got "v8"`);
});
