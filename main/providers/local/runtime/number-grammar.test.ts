/**
 * The numbers a grammar-constrained tool call can contain: the grammar node-llama-cpp builds from
 * a tool's schema (the same terminals its function calling uses), read as text, its number rules
 * turned into regular expressions, and the boundary cases parsed as JSON. Every number the
 * grammar admits must parse to a finite value (1e999 would be Infinity), and an integer must be
 * an integer.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { getLlama, LlamaLogLevel, type GbnfJsonSchema, type Llama } from "node-llama-cpp";
import { finiteNumberGrammar } from "./number-grammar.ts";
import { toGrammarSchema } from "./tool-schema.ts";

let llama: Llama;
before(async () => {
  finiteNumberGrammar();
  llama = await getLlama({ build: "never", gpu: false, logLevel: LlamaLogLevel.error });
});
after(async () => {
  await llama.dispose();
});

/** A GBNF rule body (literals, classes, groups, |, ?, *, +, {m,n}) as an anchored RegExp. */
function ruleRegExp(grammar: string, name: string): RegExp {
  const line = grammar.split("\n").find((l) => l.startsWith(`${name} ::= `));
  assert.ok(line, `the grammar has a ${name}:\n${grammar}`);
  let body = line.slice(name.length + 5);
  let out = "";
  while (body.length > 0) {
    const literal = /^"((?:[^"\\]|\\.)*)"/.exec(body);
    const cls = /^\[[^\]]*\]/.exec(body);
    const quant = /^(\{\d+(,\d*)?\}|[?*+])/.exec(body);
    if (literal) {
      out += JSON.parse(`"${literal[1]}"`).replace(/[.*+?^${}()|[\]\\-]/g, "\\$&");
      body = body.slice(literal[0].length);
    } else if (cls) {
      out += cls[0];
      body = body.slice(cls[0].length);
    } else if (quant) {
      out += quant[0];
      body = body.slice(quant[0].length);
    } else if ("()|".includes(body[0])) {
      out += body[0] === "(" ? "(?:" : body[0];
      body = body.slice(1);
    } else if (body[0] === " ") {
      body = body.slice(1);
    } else {
      assert.fail(`unexpected GBNF in ${name}: ${body}`);
    }
  }
  return new RegExp(`^(?:${out})$`);
}

const schema = toGrammarSchema({
  type: "object",
  properties: { ratio: { type: "number" }, count: { type: "integer" } },
  required: ["ratio", "count"],
});

test("the number rules admit only finite numbers; an integer has no fraction or exponent", async () => {
  const grammar = (await llama.createGrammarForJsonSchema<GbnfJsonSchema>(schema)).grammar;
  const fractional = ruleRegExp(grammar, "fractional-number-rule");
  const integer = ruleRegExp(grammar, "integer-number-rule");

  for (const ok of ["0", "-12", "3.25", "1e5", "2.5E-7", "-1e+99"])
    assert.ok(fractional.test(ok), `a number may be ${ok}`);
  for (const big of ["1e999", "1e309", "9e400", "1e1000000000000000"])
    assert.ok(!fractional.test(big), `${big} (Infinity after JSON.parse) is not admitted`);
  // The largest the rule admits: every digit it allows, the greatest exponent.
  const largest = [
    "9999999999999999.9999999999999999e99",
    "-9999999999999999.9999999999999999E+99",
  ];
  for (const edge of largest) {
    assert.ok(fractional.test(edge), `${edge} is admitted`);
    assert.ok(Number.isFinite(JSON.parse(edge)), `${edge} parses to a finite number`);
  }
  for (const big of ["1e999", "1e20", "1.5", "2E3"])
    assert.ok(!integer.test(big), `an integer is not ${big}`);
  const widest = "-9999999999999999";
  assert.ok(integer.test(widest));
  assert.ok(Number.isInteger(JSON.parse(widest)));
});
