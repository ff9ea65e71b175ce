// The environment a launch of the desktop app may set (e2e specs, scripted launches).
import { strict as assert } from "node:assert";
import path from "node:path";
import { describe, it } from "node:test";
import { launchOverrides } from "./launch-env.ts";

describe("launchOverrides", () => {
  it("is empty for an ordinary launch", () => {
    assert.deepEqual(launchOverrides({ HOME: "/home/u", PATH: "/usr/bin" }), { flags: {} });
  });

  it("takes the user-data folder (absolute) and the model as islet serve's flags", () => {
    assert.deepEqual(
      launchOverrides({
        ISLET_USER_DATA_DIR: "rel/user-data",
        ISLET_PROVIDER: "openai-compatible",
        ISLET_BASE_URL: "http://127.0.0.1:4321/v1",
        ISLET_MODEL: "fake-model",
      }),
      {
        userDataDir: path.resolve("rel/user-data"),
        flags: {
          provider: "openai-compatible",
          baseUrl: "http://127.0.0.1:4321/v1",
          model: "fake-model",
        },
      },
    );
  });

  it("ignores variables set to nothing", () => {
    assert.deepEqual(launchOverrides({ ISLET_USER_DATA_DIR: " ", ISLET_MODEL: "" }), {
      flags: {},
    });
  });
});
