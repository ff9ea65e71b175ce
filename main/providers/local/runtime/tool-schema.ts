/**
 * A tool's JSON Schema as node-llama-cpp's grammar can enforce it (its GbnfJsonSchema subset),
 * so every generated call parses and has the right shape. What the grammar cannot say is left to
 * the tool's own validation (minimum, pattern…): looser, never stricter than the tool.
 *
 * The grammar writes every property it is given, so an optional property becomes "its type or
 * null", and `dropOmitted` removes those nulls from the call's arguments afterwards.
 */
import type { GbnfJsonSchema } from "node-llama-cpp";

type Json = Record<string, unknown>;
const PRIMITIVES = ["string", "number", "integer", "boolean", "null"] as const;
type Primitive = (typeof PRIMITIVES)[number];
const FORMATS = new Set(["date-time", "time", "date"]);
/** Nested deeper than this, a value is any JSON (a recursive $ref must end somewhere). */
const MAX_DEPTH = 12;

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isPrimitiveValue(v: unknown): v is string | number | boolean | null {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

/** Any JSON value, as the grammar spells it. */
function anyValue(): GbnfJsonSchema {
  return {
    oneOf: [
      { type: ["string", "number", "boolean", "null"] },
      { type: "object", additionalProperties: true },
      { type: "array", items: { type: ["string", "number", "boolean", "null"] } },
    ],
  };
}

function withNull(s: GbnfJsonSchema): GbnfJsonSchema {
  return { oneOf: [s, { type: "null" }] };
}

class Converter {
  private readonly defs: Json;
  constructor(root: Json) {
    this.defs = isObject(root.$defs)
      ? root.$defs
      : isObject(root.definitions)
        ? root.definitions
        : {};
  }

  convert(schema: unknown, depth: number): GbnfJsonSchema {
    if (!isObject(schema) || depth > MAX_DEPTH) return anyValue();
    if (typeof schema.$ref === "string") {
      const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(schema.$ref)?.[1];
      return name && name in this.defs ? this.convert(this.defs[name], depth + 1) : anyValue();
    }
    if ("const" in schema && isPrimitiveValue(schema.const)) return { const: schema.const };
    if (Array.isArray(schema.enum)) {
      const values = schema.enum.filter(isPrimitiveValue);
      if (values.length > 0) return { enum: values };
    }
    const alternatives = schema.oneOf ?? schema.anyOf;
    if (Array.isArray(alternatives) && alternatives.length > 0) {
      return { oneOf: alternatives.map((a) => this.convert(a, depth + 1)) };
    }
    const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(
      (t): t is string => typeof t === "string",
    );
    if (types.length === 0) {
      if (isObject(schema.properties)) return this.object(schema, depth);
      if (schema.items !== undefined) return this.array(schema, depth);
      return anyValue();
    }
    if (types.length > 1) {
      const nullable = types.includes("null");
      const rest = types.filter((t) => t !== "null");
      const options = rest.map((t) => this.convert({ ...schema, type: t }, depth + 1));
      if (nullable) options.push({ type: "null" });
      return options.length === 1 ? options[0] : { oneOf: options };
    }
    const type = types[0];
    if (type === "object") return this.object(schema, depth);
    if (type === "array") return this.array(schema, depth);
    if (type === "string") {
      if (typeof schema.format === "string" && FORMATS.has(schema.format)) {
        return { type: "string", format: schema.format as "date" | "time" | "date-time" };
      }
      return {
        type: "string",
        ...(typeof schema.minLength === "number" ? { minLength: schema.minLength } : {}),
        ...(typeof schema.maxLength === "number" ? { maxLength: schema.maxLength } : {}),
      };
    }
    if ((PRIMITIVES as readonly string[]).includes(type)) return { type: type as Primitive };
    return anyValue();
  }

  private object(schema: Json, depth: number): GbnfJsonSchema {
    const props = isObject(schema.properties) ? schema.properties : {};
    const required = new Set(Array.isArray(schema.required) ? schema.required : []);
    const properties: Record<string, GbnfJsonSchema> = {};
    for (const [key, sub] of Object.entries(props)) {
      const converted = this.convert(sub, depth + 1);
      properties[key] = required.has(key) ? converted : withNull(converted);
    }
    const extra = schema.additionalProperties;
    // An object that names no properties is free-form (a map); one that does is closed.
    const additionalProperties: boolean | GbnfJsonSchema = isObject(extra)
      ? this.convert(extra, depth + 1)
      : extra === true || (extra === undefined && Object.keys(props).length === 0);
    return { type: "object", properties, additionalProperties };
  }

  private array(schema: Json, depth: number): GbnfJsonSchema {
    return {
      type: "array",
      items: this.convert(schema.items ?? {}, depth + 1),
      ...(typeof schema.minItems === "number" ? { minItems: schema.minItems } : {}),
      ...(typeof schema.maxItems === "number" ? { maxItems: schema.maxItems } : {}),
    };
  }
}

/** The grammar's schema for a tool's parameters (always an object at the top). */
export function toGrammarSchema(parameters: Json): GbnfJsonSchema {
  return new Converter(parameters).convert({ type: "object", ...parameters }, 0);
}

/** Removes the nulls the grammar wrote for optional properties the model chose to leave out. */
export function dropOmitted(args: Json, parameters: Json): Json {
  return drop(args, parameters, 0) as Json;
}

function drop(value: unknown, schema: unknown, depth: number): unknown {
  if (!isObject(value) || !isObject(schema) || depth > MAX_DEPTH) return value;
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === null && !required.has(key) && key in props && !acceptsNull(props[key])) continue;
    out[key] = drop(v, props[key], depth + 1);
  }
  return out;
}

function acceptsNull(schema: unknown): boolean {
  if (!isObject(schema)) return true;
  const type = schema.type;
  if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  return type === undefined && schema.enum === undefined && schema.const === undefined;
}
