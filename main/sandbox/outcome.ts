/**
 * Host-side decoding of what the prelude sends back (see prelude.ts): call outcomes and the
 * export description. Shared by every backend, so faults read the same whatever runs the plugin.
 */
import { SandboxFault } from "./types.ts";

export interface ExportDescription {
  functions: Set<string>;
  arity: Map<string, number>;
  values: Record<string, unknown>;
  /** Exports that are neither functions nor JSON data (left out of `values`). */
  skipped: string[];
}

interface PluginError {
  name: string;
  message: string;
  stack: string;
}

/** The value an outcome carries, or the SandboxFault it stands for. */
export function decodeOutcome(
  outcome: unknown,
  exportName: string,
  filename: string,
  maxResultChars: number,
): unknown {
  if (typeof outcome !== "string" || outcome.length === 0) {
    throw new SandboxFault("result", `${exportName} returned something that is not JSON data`);
  }
  const body = outcome.slice(1);
  switch (outcome[0]) {
    case "u":
      return undefined;
    case "v":
      if (body.length > maxResultChars) {
        throw new SandboxFault(
          "result",
          `${exportName} returned more than ${maxResultChars} characters of JSON`,
        );
      }
      return JSON.parse(body);
    case "r":
      throw new SandboxFault(
        "result",
        `${exportName} returned ${body}: results must be JSON data (objects, arrays, strings, numbers, booleans, null)`,
      );
    case "e":
      throw exceptionFault(parsePluginError(body), filename);
    default:
      throw new SandboxFault("result", `${exportName} returned an unreadable outcome`);
  }
}

function parsePluginError(json: string): PluginError {
  try {
    const raw: unknown = JSON.parse(json);
    if (raw !== null && typeof raw === "object") {
      const { name, message, stack } = raw as Record<string, unknown>;
      return {
        name: String(name ?? "Error"),
        message: String(message ?? ""),
        stack: String(stack ?? ""),
      };
    }
  } catch {
    // fall through: a broken error report is still an exception
  }
  return { name: "Error", message: "the plugin threw an unreadable error", stack: "" };
}

/** "TypeError: x is not a function (at beforeChat (/p/index.ts:3:9))": the message plus where. */
export function exceptionFault(error: PluginError, filename: string): SandboxFault {
  const label = error.name && error.name !== "Error" ? `${error.name}: ` : "";
  const frame = pluginFrame(error.stack, filename);
  return new SandboxFault(
    "exception",
    withWasmAdvice(`${label}${error.message}${frame ? ` (at ${frame})` : ""}`),
    { cause: error },
  );
}

/** A plugin reaching for WebAssembly it did not ask for is told how to ask (V8 and QuickJS wording). */
export function withWasmAdvice(message: string): string {
  if (!/\bWebAssembly'? is not defined/.test(message)) return message;
  return `${message}: WebAssembly is off unless the plugin asks for it in plugin.yaml (permissions: wasm: reason: "…"), and the QuickJS plugin runtime has none`;
}

/** The first stack frame in the plugin's own file, else the first frame at all. */
export function pluginFrame(stack: string, filename: string): string | undefined {
  const frames = stack
    .split("\n")
    .map((line) => line.trim())
    // The prelude and the synthetic modules are "islet:…"; the plugin author wants their own line.
    .filter(
      (line) =>
        line.startsWith("at ") && !line.includes("<isolated-vm") && !line.includes("islet:"),
    )
    .map((line) => line.slice(3));
  return frames.find((frame) => frame.includes(filename)) ?? frames[0];
}

/** Parses the prelude's describe() output. */
export function decodeDescription(json: unknown): ExportDescription {
  const raw = JSON.parse(String(json)) as {
    functions: [string, number][];
    values: Record<string, unknown>;
    skipped: string[];
  };
  return {
    functions: new Set(raw.functions.map(([name]) => name)),
    arity: new Map(raw.functions),
    values: Object.freeze(raw.values),
    skipped: raw.skipped,
  };
}
