import { test } from "node:test";
import assert from "node:assert/strict";
import { dropOmitted, toGrammarSchema } from "./tool-schema.ts";

test("tool schema → grammar: required stays, optional may be null, what the grammar cannot say is dropped", () => {
  const grammar = toGrammarSchema({
    type: "object",
    properties: {
      path: { type: "string", pattern: "^/", minLength: 1 },
      limit: { type: "integer", minimum: 1 },
      mode: { enum: ["a", "b"] },
      tags: { type: "array", items: { type: "string" }, maxItems: 3 },
      when: { type: "string", format: "date" },
      anything: {},
    },
    required: ["path", "mode"],
  });
  assert.deepEqual(grammar, {
    type: "object",
    properties: {
      path: { type: "string", minLength: 1 },
      limit: { oneOf: [{ type: "integer" }, { type: "null" }] },
      mode: { enum: ["a", "b"] },
      tags: {
        oneOf: [{ type: "array", items: { type: "string" }, maxItems: 3 }, { type: "null" }],
      },
      when: { oneOf: [{ type: "string", format: "date" }, { type: "null" }] },
      anything: {
        oneOf: [
          {
            oneOf: [
              { type: ["string", "number", "boolean", "null"] },
              { type: "object", additionalProperties: true },
              { type: "array", items: { type: ["string", "number", "boolean", "null"] } },
            ],
          },
          { type: "null" },
        ],
      },
    },
    additionalProperties: false,
  });
});

test("tool schema → grammar: $ref, type lists, anyOf and free-form objects", () => {
  const grammar = toGrammarSchema({
    type: "object",
    $defs: { Point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
    properties: {
      at: { $ref: "#/$defs/Point" },
      n: { type: ["integer", "null"] },
      either: { anyOf: [{ type: "string" }, { type: "boolean" }] },
      env: { type: "object" },
    },
    required: ["at", "n", "either", "env"],
  });
  assert.deepEqual(grammar, {
    type: "object",
    properties: {
      at: { type: "object", properties: { x: { type: "number" } }, additionalProperties: false },
      n: { oneOf: [{ type: "integer" }, { type: "null" }] },
      either: { oneOf: [{ type: "string" }, { type: "boolean" }] },
      env: { type: "object", properties: {}, additionalProperties: true },
    },
    additionalProperties: false,
  });
});

test("dropOmitted removes the grammar's nulls for optional properties only", () => {
  const schema = {
    type: "object",
    properties: {
      path: { type: "string" },
      limit: { type: "integer" },
      note: { type: ["string", "null"] },
      inner: { type: "object", properties: { deep: { type: "string" } } },
    },
    required: ["path"],
  };
  assert.deepEqual(
    dropOmitted({ path: "a", limit: null, note: null, inner: { deep: null } }, schema),
    { path: "a", note: null, inner: {} },
  );
});
