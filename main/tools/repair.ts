/**
 * Repairs the shape slips local models make in tool-call arguments, guided by the tool's JSON
 * Schema: numbers and booleans sent as strings ("10", "true"), arrays and objects sent as JSON
 * text, a single value where a list is expected, a number where text is expected, and null for an
 * optional field. Only the model's own arguments are repaired, and only when they fail
 * validation as sent; arguments rewritten by plugins are validated strictly (Aura's rule).
 */

type Schema = Record<string, unknown>;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function types(schema: Schema): string[] {
  const t = schema["type"];
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  // zod's optional/nullable unions come out as anyOf.
  const anyOf = schema["anyOf"];
  if (Array.isArray(anyOf)) return anyOf.filter(isObject).flatMap(types);
  return [];
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function repairValue(value: unknown, schema: Schema): unknown {
  const want = types(schema);
  if (want.length === 0 || want.some((t) => matches(value, t))) {
    if (isObject(value) && want.includes("object")) return repairObject(value, schema);
    if (Array.isArray(value) && isObject(schema["items"]))
      return value.map((v) => repairValue(v, schema["items"] as Schema));
    return value;
  }
  if (typeof value === "string") {
    const text = value.trim();
    if ((want.includes("number") || want.includes("integer")) && /^-?\d+(\.\d+)?$/.test(text)) {
      const n = Number(text);
      if (want.includes("number") || Number.isInteger(n)) return n;
    }
    if (want.includes("boolean") && (text === "true" || text === "false")) return text === "true";
    if (want.includes("array") || want.includes("object")) {
      const parsed = parseJson(text);
      if (parsed !== undefined && want.some((t) => matches(parsed, t)))
        return repairValue(parsed, schema);
    }
  }
  if ((typeof value === "number" || typeof value === "boolean") && want.includes("string"))
    return String(value);
  if (want.includes("array") && value !== null && !Array.isArray(value)) {
    const items = isObject(schema["items"]) ? (schema["items"] as Schema) : {};
    return [repairValue(value, items)];
  }
  return value;
}

function matches(value: unknown, type: string): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number";
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    case "null":
      return value === null;
    default:
      return false;
  }
}

function repairObject(args: Record<string, unknown>, schema: Schema): Record<string, unknown> {
  const properties = isObject(schema["properties"]) ? schema["properties"] : {};
  const required = new Set(Array.isArray(schema["required"]) ? schema["required"] : []);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const property = properties[key];
    if (!isObject(property)) {
      out[key] = value;
      continue;
    }
    if (value === null && !required.has(key) && !types(property).includes("null")) continue;
    out[key] = repairValue(value, property);
  }
  return out;
}

/**
 * The arguments with the slips above undone, or undefined when nothing needed changing. The whole
 * argument object may itself arrive as JSON text.
 */
export function repairArguments(
  args: unknown,
  schema: Schema,
): Record<string, unknown> | undefined {
  const object = typeof args === "string" ? parseJson(args) : args;
  if (!isObject(object)) return undefined;
  const repaired = repairObject(object, schema);
  return JSON.stringify(repaired) === JSON.stringify(args) ? undefined : repaired;
}
