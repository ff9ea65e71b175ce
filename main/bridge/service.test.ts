import assert from "node:assert/strict";
import { test } from "node:test";
import type { PluginList } from "./contract.ts";
import { BridgeService, type BridgeHandlers } from "./service.ts";

const emptyList: PluginList = { backend: null, plugins: [], problems: [] };

function service(overrides: Partial<BridgeHandlers> = {}, log: string[] = []): BridgeService {
  return new BridgeService(
    {
      "app/info": () => ({
        name: "Islet",
        version: "1",
        host: "browser",
        versions: { node: "24", electron: null, chrome: null },
        platform: "linux-x64",
        workdir: "/w",
        home: "/h",
      }),
      "plugins/list": () => emptyList,
      "plugins/reload": () => ({ reports: [] }),
      "plugins/restart": ({ name }) => ({ name, ok: true, ms: 1 }),
      ...overrides,
    },
    { log: (line) => log.push(line) },
  );
}

test("a valid call returns the handler's validated response", async () => {
  assert.deepEqual(await service().call("plugins/list", undefined), emptyList);
});

test("unknown names and bad payloads are refused with one line naming the call", async () => {
  const s = service();
  await assert.rejects(s.call("fs/delete", undefined), /^BridgeError: unknown call "fs\/delete"$/);
  await assert.rejects(s.call(42, undefined), /unknown call 42/);
  await assert.rejects(
    s.call("plugins/list", { all: true }),
    /^BridgeError: plugins\/list: invalid payload: /,
  );
});

test("a failing handler reaches the caller as its message, without a stack", async () => {
  const s = service({
    "plugins/reload": () => {
      throw new Error("plugins are off");
    },
  });
  await assert.rejects(s.call("plugins/reload", undefined), {
    name: "BridgeError",
    message: "plugins/reload: plugins are off",
  });
});

test("a response that breaks the contract is logged and never crosses", async () => {
  const log: string[] = [];
  const s = service({ "plugins/list": () => ({ ...emptyList, secret: "sk-123" }) as never }, log);
  await assert.rejects(s.call("plugins/list", undefined), /internal error \(invalid response\)/);
  assert.equal(log.length, 1);
  assert.match(log[0], /plugins\/list produced an invalid response/);
});

test("events reach every subscriber until it unsubscribes; invalid payloads are dropped", () => {
  const log: string[] = [];
  const s = service({}, log);
  const seen: unknown[] = [];
  const off = s.subscribe((event, payload) => seen.push([event, payload]));
  s.subscribe(() => {
    throw new Error("a transport broke");
  });
  s.emit("engine/warning", { text: "bad yaml" });
  s.emit("engine/warning", { text: 3 } as never);
  off();
  s.emit("engine/warning", { text: "after" });
  assert.deepEqual(seen, [["engine/warning", { text: "bad yaml" }]]);
  assert.equal(log.filter((l) => l.includes("dropped")).length, 1);
  assert.equal(log.filter((l) => l.includes("a transport failed")).length, 2);
});
