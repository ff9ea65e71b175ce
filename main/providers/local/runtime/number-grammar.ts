/**
 * Numbers a grammar-constrained tool call can write: node-llama-cpp's JSON grammar (3.21.1,
 * pinned) admits up to 16 exponent digits, so a model may write `1e999`, which JSON.parse turns
 * into Infinity, and an "integer" may carry a fraction-making exponent (`1e-5`). Its number
 * terminal is not configurable and not exported, so the runtime replaces that terminal's rule
 * once, before any grammar is built: a number's exponent has at most two digits (at most
 * 9999999999999999.9999999999999999e99, far below 1.8e308) and an integer has no exponent.
 * The validation fallback in generate.ts stays for whatever the grammar cannot say.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const INTEGER = '"-"? ("0" | [1-9] [0-9]{0,15})';
const FRACTION = ' ("." [0-9]{1,16})?';
const EXPONENT = " ([eE] [-+]? [0-9]{1,2})?";

interface NumberTerminal {
  allowFractional: boolean;
  getGrammar(): string;
}

let done = false;

/** Replaces node-llama-cpp's number rule (idempotent); throws when its file is not where 3.21 has it. */
export function finiteNumberGrammar(): void {
  if (done) return;
  // The module instance node-llama-cpp itself uses (its exports map hides it from a bare import).
  const require = createRequire(import.meta.url);
  const root = dirname(require.resolve("node-llama-cpp"));
  const file = join(root, "utils", "gbnfJson", "terminals", "GbnfNumber.js");
  const loaded = require(file) as {
    GbnfNumber?: { prototype: NumberTerminal };
  };
  const proto = loaded.GbnfNumber?.prototype;
  if (!proto || typeof proto.getGrammar !== "function")
    throw new Error(`node-llama-cpp's number grammar is not in ${file}`);
  proto.getGrammar = function (this: NumberTerminal): string {
    return this.allowFractional ? INTEGER + FRACTION + EXPONENT : INTEGER;
  };
  done = true;
}
