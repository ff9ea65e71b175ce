import assert from "node:assert/strict";
import { test } from "node:test";
import { builtinTools } from "./index.ts";
import { repairArguments } from "./repair.ts";

const tool = (name: string) => builtinTools().find((t) => t.name === name)!;

test("numbers and booleans sent as text become numbers and booleans where the schema says so", () => {
  const grep = tool("Grep");
  const sent = { pattern: "TODO", context: "2", case_insensitive: "true" };
  const repaired = repairArguments(sent, grep.parameters);
  assert.deepEqual(repaired, { pattern: "TODO", context: 2, case_insensitive: true });
  assert.equal(grep.validate(sent).ok, false);
  assert.equal(grep.validate(repaired).ok, true);
});

test("text that is not a number stays text, and an integer field refuses a fraction", () => {
  const read = tool("Read");
  assert.deepEqual(repairArguments({ path: "a", offset: "two" }, read.parameters), undefined);
  assert.deepEqual(repairArguments({ path: "a", offset: "2.5" }, read.parameters), undefined);
});

test("null for an optional field is dropped; a number where text is wanted becomes text", () => {
  const read = tool("Read");
  const repaired = repairArguments({ path: 42, offset: null, limit: 5 }, read.parameters);
  assert.deepEqual(repaired, { path: "42", limit: 5 });
  assert.equal(read.validate(repaired).ok, true);
});

test("lists sent as JSON text or as a single item become lists, nested objects included", () => {
  const schema = {
    type: "object" as const,
    properties: {
      todos: {
        type: "array",
        items: {
          type: "object",
          properties: { content: { type: "string" }, done: { type: "boolean" } },
        },
      },
      tags: { type: "array", items: { type: "string" } },
    },
  };
  assert.deepEqual(
    repairArguments({ todos: '[{"content":"a","done":"false"}]', tags: "x" }, schema),
    { todos: [{ content: "a", done: false }], tags: ["x"] },
  );
});

test("well-formed arguments are left alone, and the whole object may arrive as JSON text", () => {
  const ls = tool("Ls");
  assert.equal(repairArguments({ path: "." }, ls.parameters), undefined);
  assert.deepEqual(repairArguments('{"path":"src"}', ls.parameters), { path: "src" });
  assert.equal(repairArguments("not json", ls.parameters), undefined);
});
