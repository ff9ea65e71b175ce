import assert from "node:assert/strict";
import { test } from "node:test";
import { z } from "zod";
import { defineTool } from "./define.ts";
import { tempWorkspace } from "./test-support.ts";

const echo = defineTool({
  name: "Echo",
  description: "Echoes",
  args: {
    text: z.string().describe("What to echo"),
    times: z.number().int().min(1).optional(),
    mode: z.enum(["loud", "quiet"]).optional(),
    tags: z.array(z.strictObject({ name: z.string() })).optional(),
  },
  parallel: true,
  async execute(args) {
    // args is typed: text is a string, times a number or undefined.
    return args.text.repeat(args.times ?? 1);
  },
});

test("parameters are a clean JSON Schema object", () => {
  assert.deepEqual(echo.parameters, {
    type: "object",
    properties: {
      text: { type: "string", description: "What to echo" },
      times: { type: "integer", minimum: 1 },
      mode: { type: "string", enum: ["loud", "quiet"] },
      tags: {
        type: "array",
        items: {
          type: "object",
          properties: { name: { type: "string" } },
          required: ["name"],
          additionalProperties: false,
        },
      },
    },
    required: ["text"],
    additionalProperties: false,
  });
  assert.equal(echo.source, "builtin");
});

test("validate accepts good arguments", () => {
  assert.deepEqual(echo.validate({ text: "a", times: 2 }), {
    ok: true,
    value: { text: "a", times: 2 },
  });
});

test("validate names the field and what is wrong, on one line", () => {
  const error = (args: unknown): string => {
    const result = echo.validate(args);
    assert.equal(result.ok, false);
    return result.ok ? "" : result.error;
  };
  assert.equal(error({ text: "a", colour: "red" }), 'unknown field: "colour"');
  assert.equal(error({ text: "a", x: 1, y: 2 }), 'unknown fields: "x", "y"');
  assert.equal(error({}), '"text" is required');
  assert.equal(error({ text: 5 }), '"text": expected string, got number');
  assert.equal(error({ text: "a", times: 1.5 }), '"times": expected int, got number 1.5');
  assert.equal(
    error({ text: "a", mode: "shout" }),
    '"mode": expected one of "loud", "quiet", got "shout"',
  );
  assert.equal(
    error({ text: "a", tags: [{ name: 1 }] }),
    '"tags.0.name": expected string, got number',
  );
  assert.equal(error({ text: "a", tags: [{ name: "x", y: 1 }] }), 'unknown field in "tags.0": "y"');
  assert.equal(error("text"), "arguments: expected object, got string");
  assert.equal(error(null), "arguments: expected object, got null");
  assert.match(
    error({ text: 1, times: "2" }),
    /^"text": .*; "times": expected number, got string$/,
  );
  assert.ok(!error({ text: 1, times: "2" }).includes("\n"));
});

test("execute re-validates when called directly", async () => {
  const ws = await tempWorkspace();
  try {
    assert.equal(await echo.execute({ text: "ab", times: 2 }, ws.ctx), "abab");
    await assert.rejects(echo.execute({ text: 3 }, ws.ctx), {
      name: "ToolError",
      message: /"text"/,
    });
  } finally {
    await ws.cleanup();
  }
});
