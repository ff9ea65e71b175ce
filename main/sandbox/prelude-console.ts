/**
 * Sandbox-side source of `console`: formats arguments roughly like Node's util.format/inspect
 * (enough to read objects in a plugin log) and hands one capped line per call to the host.
 *
 * This is JavaScript evaluated inside the sandbox, kept as a string so every backend can install
 * it unchanged. It evaluates to `makeConsole(emit, maxChars)`.
 */
export const CONSOLE_SOURCE = String.raw`
function makeConsole(emit, maxChars) {
  "use strict";
  const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
  const MAX_ITEMS = 50;
  const MAX_DEPTH = 2;

  // state.left bounds the work as well as the output: a huge nested object stops early.
  function inspect(value, depth, seen, state) {
    if (state.left <= 0) return "…";
    let text;
    switch (typeof value) {
      case "string":
        text = depth === 0 ? value : "'" + value.replace(/'/g, "\\'") + "'";
        break;
      case "number":
        text = Object.is(value, -0) ? "-0" : String(value);
        break;
      case "bigint":
        text = String(value) + "n";
        break;
      case "boolean":
      case "undefined":
        text = String(value);
        break;
      case "symbol":
        text = value.toString();
        break;
      case "function":
        text = (/^class[\s{]/.test(Function.prototype.toString.call(value)) ? "[class " : "[Function ") +
          (value.name || "(anonymous)") + "]";
        break;
      default:
        text = value === null ? "null" : inspectObject(value, depth, seen, state);
    }
    state.left -= text.length;
    return text;
  }

  function inspectObject(value, depth, seen, state) {
    if (seen.includes(value)) return "[Circular]";
    if (value instanceof Error) return errorText(value);
    if (value instanceof Date) return isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
    if (value instanceof RegExp) return String(value);
    if (value instanceof Promise) return "Promise { … }";
    if (depth > MAX_DEPTH) return Array.isArray(value) ? "[Array]" : "[Object]";
    seen.push(value);
    try {
      const nested = (v) => inspect(v, depth + 1, seen, state);
      if (Array.isArray(value)) return list("", "[", "]", value.slice(0, MAX_ITEMS).map(nested), value.length);
      if (value instanceof Map) {
        const items = [];
        for (const [k, v] of value) {
          if (items.length === MAX_ITEMS) break;
          items.push(nested(k) + " => " + nested(v));
        }
        return list("Map(" + value.size + ") ", "{", "}", items, value.size);
      }
      if (value instanceof Set) {
        const items = [];
        for (const v of value) {
          if (items.length === MAX_ITEMS) break;
          items.push(nested(v));
        }
        return list("Set(" + value.size + ") ", "{", "}", items, value.size);
      }
      const keys = Object.keys(value);
      const items = keys
        .slice(0, MAX_ITEMS)
        .map((k) => (IDENTIFIER.test(k) ? k : "'" + k + "'") + ": " + nested(value[k]));
      const ctor = Object.getPrototypeOf(value) === null ? "[Object: null prototype] " :
        value.constructor && value.constructor.name && value.constructor.name !== "Object"
          ? value.constructor.name + " " : "";
      return list(ctor, "{", "}", items, keys.length);
    } finally {
      seen.pop();
    }
  }

  // V8 starts a stack with "Name: message"; QuickJS's holds only the frames, so add the header.
  function errorText(error) {
    const stack = String(error.stack || "");
    const head = error.name + ": " + error.message;
    if (stack === "") return head;
    return /^\s+at /.test(stack) ? head + "\n" + stack.replace(/\n$/, "") : stack;
  }

  function list(prefix, open, close, items, total) {
    if (total > items.length) items.push("... " + (total - items.length) + " more items");
    return items.length === 0 ? prefix + open + close : prefix + open + " " + items.join(", ") + " " + close;
  }

  // printf-style directives like Node's util.format: %s %d %i %f %j %o %O %c %%.
  function format(args) {
    const state = { left: maxChars };
    let rest = args;
    let head = "";
    if (typeof args[0] === "string" && args.length > 1 && args[0].includes("%")) {
      let i = 1;
      head = args[0].replace(/%([sdifjoOc%])/g, (match, directive) => {
        if (directive === "%") return "%";
        if (i >= args.length) return match;
        const arg = args[i++];
        switch (directive) {
          case "s": return typeof arg === "string" ? arg : inspect(arg, 1, [], state);
          case "d": case "i": {
            const n = typeof arg === "bigint" ? arg : Number(arg);
            return directive === "i" && typeof n === "number" ? String(Math.trunc(n)) : String(n);
          }
          case "f": return String(parseFloat(arg));
          case "j": try { return JSON.stringify(arg); } catch { return "[Circular]"; }
          case "c": return "";
          default: return inspect(arg, 1, [], state);
        }
      });
      rest = args.slice(i);
      state.left -= head.length;
    }
    const parts = rest.map((arg) => inspect(arg, 0, [], state));
    return head === "" ? parts.join(" ") : [head].concat(parts).join(" ");
  }

  function cap(text) {
    return text.length <= maxChars ? text : text.slice(0, maxChars) + "… [" + (text.length - maxChars) + " more characters]";
  }

  function emitter(level) {
    return Object.freeze(function (...args) {
      let text;
      try {
        text = format(args);
      } catch (error) {
        text = "[console could not format its arguments: " + String(error && error.message) + "]";
      }
      emit(level, cap(text));
    });
  }

  const log = emitter("log");
  const debug = emitter("debug");
  const error = emitter("error");
  return Object.freeze({
    log,
    info: emitter("info"),
    warn: emitter("warn"),
    error,
    debug,
    dir: log,
    trace: Object.freeze(function (...args) {
      // Frames only (V8 puts a header line first), without this function's own.
      const frames = String(new Error().stack).split("\n").filter((line) => /^\s+at /.test(line));
      debug(format(args) + "\n" + frames.slice(1).join("\n"));
    }),
    assert: Object.freeze(function (condition, ...args) {
      if (!condition) error(args.length ? "Assertion failed: " + format(args) : "Assertion failed");
    }),
  });
}
`;
