/** The QuickJS worker's lifetime: shared while plugins use it, stopped once none has for a while. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { loadPlugin, SANDBOX_BACKENDS_UNDER_TEST, sleep } from "../testing.ts";
import { IDLE_RETIRE_MS, sharedWorkerLink } from "./link.ts";

const quickjs = SANDBOX_BACKENDS_UNDER_TEST.find((b) => b.name === "quickjs")!;
const PING = "export const ping = () => 'pong';";

test("plugins share one worker; it is stopped once idle and a later load starts a new one", async () => {
  const first = await loadPlugin(quickjs, PING);
  const link = sharedWorkerLink();
  const second = await loadPlugin(quickjs, PING);
  assert.equal(sharedWorkerLink(), link, "the second plugin joins the same worker");

  first.dispose();
  await sleep(IDLE_RETIRE_MS + 300);
  assert.equal(link.lost, false, "a worker with a plugin left keeps running");
  second.dispose();
  // A reload disposes and loads again at once: the worker survives the gap.
  const third = await loadPlugin(quickjs, PING);
  assert.equal(sharedWorkerLink(), link);
  third.dispose();

  await sleep(IDLE_RETIRE_MS + 300);
  assert.equal(link.lost, true, "an idle worker is stopped");
  const again = await loadPlugin(quickjs, PING);
  assert.equal(await again.call("ping", []), "pong");
  assert.notEqual(sharedWorkerLink(), link);
  again.dispose();
});
