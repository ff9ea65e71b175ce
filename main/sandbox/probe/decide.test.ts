import assert from "node:assert/strict";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { decideBackend, type ProbeProcess } from "./decide.ts";
import { nodeProbe } from "./node-probe.ts";

const here = (f: string) => fileURLToPath(new URL(f, import.meta.url));

async function withCache(fn: (file: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), "islet-probe-"));
  try {
    await fn(path.join(dir, "cache", "sandbox-probe.json"));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test("the real probe passes under Node, so isolated-vm is chosen and the verdict cached", async () => {
  await withCache(async (cacheFile) => {
    let spawned = 0;
    const spawn = (): ProbeProcess => (spawned++, nodeProbe(here("./isolated-vm-probe.ts")));
    const first = await decideBackend({ key: "node-24/app-0.1.0", cacheFile, spawn });
    assert.equal(first.backend, "isolated-vm", first.reason);
    assert.equal(first.cached, false);
    const again = await decideBackend({ key: "node-24/app-0.1.0", cacheFile, spawn });
    assert.equal(again.cached, true);
    assert.equal(spawned, 1);
    const other = await decideBackend({ key: "node-24/app-0.2.0", cacheFile, spawn });
    assert.equal(other.cached, false, "a new app version probes again");
    assert.equal(spawned, 2);
  });
});

test("a probe that crashes selects QuickJS and says why", async () => {
  await withCache(async (cacheFile) => {
    const v = await decideBackend({
      key: "k",
      cacheFile,
      spawn: () => nodeProbe(here("./testing/probe-crash.mjs")),
    });
    assert.equal(v.backend, "quickjs");
    assert.match(v.reason, /crashed \(signal SIGABRT\)/);
    assert.equal(
      (JSON.parse(await readFile(cacheFile, "utf8")) as { backend: string }).backend,
      "quickjs",
    );
  });
});

test("a probe that fails selects QuickJS with its reason", async () => {
  await withCache(async (cacheFile) => {
    const v = await decideBackend({
      key: "k",
      cacheFile,
      spawn: () => nodeProbe(here("./testing/probe-fail.mjs")),
    });
    assert.equal(v.backend, "quickjs");
    assert.match(v.reason, /failed \(typed arrays inside an isolate gave NaN\)/);
  });
});

test("a probe that hangs is killed and QuickJS chosen", async () => {
  await withCache(async (cacheFile) => {
    const v = await decideBackend({
      key: "k",
      cacheFile,
      timeoutMs: 500,
      spawn: () => nodeProbe(here("./testing/probe-hang.mjs")),
    });
    assert.equal(v.backend, "quickjs");
    assert.match(v.reason, /hung/);
  });
});
