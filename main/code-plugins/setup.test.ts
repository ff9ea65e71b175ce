import assert from "node:assert/strict";
import { test } from "node:test";
import { chooseBackend, NODE_BACKEND } from "./setup.ts";

const probeFailed = {
  name: "quickjs" as const,
  reason: "the isolated-vm probe crashed (signal SIGABRT), likely V8's memory cage; using QuickJS",
};

test("nobody chose: the host's choice and its reason", () => {
  assert.deepEqual(chooseBackend({ runtime: "auto", runtimeSource: null }), NODE_BACKEND);
  assert.deepEqual(
    chooseBackend({ runtime: "auto", runtimeSource: null }, probeFailed),
    probeFailed,
  );
});

test("a flag or features file wins and is named as the reason", () => {
  assert.deepEqual(chooseBackend({ runtime: "quickjs", runtimeSource: "--plugin-runtime" }), {
    name: "quickjs",
    reason: "chosen by --plugin-runtime",
  });
  assert.deepEqual(
    chooseBackend({ runtime: "isolated-vm", runtimeSource: "plugins.runtime in /h/plugins.yaml" }),
    { name: "isolated-vm", reason: "chosen by plugins.runtime in /h/plugins.yaml" },
  );
});

test("where the probe found isolated-vm unsafe, asking for it still gets QuickJS, with both reasons", () => {
  assert.deepEqual(
    chooseBackend({ runtime: "isolated-vm", runtimeSource: "--plugin-runtime" }, probeFailed),
    {
      name: "quickjs",
      reason: `--plugin-runtime asks for isolated-vm, but ${probeFailed.reason}`,
    },
  );
});
