/**
 * `models/list` with nothing configured: local servers found on this machine are listed by their
 * product name, and with none at all the answer says how to start one.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { DetectedServer } from "../../providers/index.ts";
import { recordingClient } from "../testing.ts";
import { startSettingsHarness } from "./testing-host.ts";

test("detected local servers are listed; the first one is what a new chat uses", async () => {
  const servers: DetectedServer[] = [];
  const h = await startSettingsHarness([], {}, { providers: false, detect: async () => servers });
  const c = recordingClient(h.host.service);
  try {
    const empty = (await c.call("models/list", {})) as {
      servers: unknown[];
      current: unknown;
      currentError: string;
    };
    assert.deepEqual(empty.servers, []);
    assert.equal(empty.current, null);
    assert.match(empty.currentError, /islet models pull .* or start Ollama/);
    // The user starts LM Studio (the fake Ollama stands in for its address): looked for again.
    servers.push({
      id: "lmstudio",
      kind: "ollama",
      baseUrl: h.model.url,
      models: [{ name: "small:1b" }],
    });
    const found = (await c.call("models/list", {})) as {
      servers: { label: string; source: string; models: string[] }[];
      current: unknown;
    };
    assert.deepEqual(
      found.servers.map((s) => [s.label, s.source, s.models]),
      [["LM Studio", "detected", ["small:1b"]]],
    );
    assert.deepEqual(found.current, { provider: "lmstudio", model: "small:1b" });
  } finally {
    c.close();
    await h.close();
  }
});
