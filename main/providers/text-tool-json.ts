/** Reading the JSON inside a text-protocol tool call, leniently (fences, aliases, string args). */

/** Index just past the JSON object or array starting at `start`, or -1 if it is unfinished. */
export function scanJson(s: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped char
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export type Reading =
  | { ok: true; name: string; args: Record<string, unknown> }
  | { ok: false; name: string; why: string };

/** Reads {"name","arguments"} (also "parameters", OpenAI's {"function":{…}}, string arguments). */
export function readCallObject(value: unknown): Reading {
  if (!isObject(value)) return { ok: false, name: "", why: "the block is not a JSON object" };
  const obj = isObject(value.function) ? value.function : value;
  const rawName = obj.name ?? obj.tool ?? obj.tool_name;
  const name = typeof rawName === "string" ? rawName.trim() : "";
  if (!name) return { ok: false, name: "", why: 'the object has no "name"' };
  let args = obj.arguments ?? obj.parameters ?? obj.args ?? obj.input ?? {};
  if (typeof args === "string") {
    try {
      args = args.trim() ? JSON.parse(args) : {};
    } catch {
      return { ok: false, name, why: '"arguments" is a string that is not JSON' };
    }
  }
  if (!isObject(args)) return { ok: false, name, why: '"arguments" must be a JSON object' };
  return { ok: true, name, args };
}

/** Parses a block body; `rest` is text after the object (an unclosed block's trailing prose). */
export function parseBody(body: string): { reading: Reading; rest: string } {
  const s = body
    .trim()
    .replace(/^```[\w-]*\s*/, "")
    .replace(/\s*```$/, "");
  const start = s.indexOf("{");
  if (start === -1)
    return { reading: { ok: false, name: "", why: "no JSON object in the block" }, rest: "" };
  const end = scanJson(s, start);
  const json = end === -1 ? s.slice(start) : s.slice(start, end);
  const guessed = /"name"\s*:\s*"([^"]+)"/.exec(json)?.[1] ?? "";
  try {
    return { reading: readCallObject(JSON.parse(json)), rest: end === -1 ? "" : s.slice(end) };
  } catch (err) {
    const why = `invalid JSON (${err instanceof Error ? err.message : String(err)})`;
    return { reading: { ok: false, name: guessed, why }, rest: "" };
  }
}
