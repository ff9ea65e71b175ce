// A turn that fails for want of a model says so with a remedy the app offers as buttons.
import assert from "node:assert/strict";
import { test } from "node:test";
import { ConfigError } from "../providers/config.ts";
import { startHarness } from "./testing.ts";

test("no model to resolve: the error event carries the get_model remedy the app turns into buttons", async () => {
  const h = await startHarness([], {
    deps: {
      resolveModel: async () => {
        throw new ConfigError("no model downloaded — run `islet models pull tiny`", "get_model");
      },
    },
  });
  try {
    const outcome = await h.session.send("hello");
    assert.equal(outcome.status, "error");
    const [error] = h.of("error");
    assert.equal(error.remedy, "get_model");
    assert.match(error.message, /islet models pull tiny/, "the CLI's words stay the engine's");
  } finally {
    await h.close();
  }
});
