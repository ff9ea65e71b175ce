import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { version } from "../../../plugins/sdk/index.ts";
import { hostSdkVersion, satisfiesTilde, sdkCompatibility, sdkLoadError } from "./sdk-version.ts";

describe("SDK version compatibility (~plugin)", () => {
  it("matches the seed's matrix", () => {
    const matrix: [plugin: string, host: string, ok: boolean][] = [
      ["0.1.0", "0.1.0", true],
      ["0.1.0", "0.1.5", true], // patch-compatible
      ["0.1.5", "0.1.0", false], // host too old
      ["0.2.0", "0.1.0", false], // minor mismatch
      ["0.2.0", "0.1.9", false],
      ["0.1.0", "0.2.0", false], // plugin too old for a new minor
      ["1.2.3", "1.2.9", true],
      ["1.2.3", "1.3.0", false],
      ["1.2.3", "2.2.3", false],
    ];
    for (const [plugin, host, ok] of matrix) {
      assert.equal(satisfiesTilde(plugin, host), ok, `~${plugin} on ${host}`);
    }
  });

  it("the host version is the SDK's", () => {
    assert.equal(hostSdkVersion, version);
  });

  it("sdkCompatibility for plugins show", () => {
    assert.deepEqual(sdkCompatibility({}, "0.1.0"), { status: "unchecked" });
    assert.deepEqual(sdkCompatibility({ sdk: "0.1.0" }, "0.1.5"), {
      status: "compatible",
      message: "0.1.0 (compatible)",
    });
    assert.deepEqual(sdkCompatibility({ sdk: "0.2.0" }, "0.1.0"), {
      status: "incompatible",
      message: "plugin requires SDK ~0.2.0, host has 0.1.0",
    });
  });

  it("load errors use the seed's wording and say which side to update", () => {
    assert.equal(sdkLoadError("my-plugin", {}, "0.1.0"), undefined);
    assert.equal(sdkLoadError("my-plugin", { sdk: "0.1.0" }, "0.1.3"), undefined);
    const newer = sdkLoadError("my-plugin", { sdk: "0.2.0" }, "0.1.0") ?? "";
    assert.ok(newer.startsWith('plugin "my-plugin": plugin requires SDK ~0.2.0, host has 0.1.0'));
    assert.match(newer, /update Islet/);
    const older = sdkLoadError("my-plugin", { sdk: "0.1.0" }, "0.2.0") ?? "";
    assert.match(older, /update the plugin \(islet plugins update my-plugin\)/);
  });
});
