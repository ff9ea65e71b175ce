/**
 * The messages between the host thread (sandbox.ts, link.ts) and the QuickJS worker
 * (worker.ts). Modules are numbered per worker; calls and host requests per module.
 * Everything is JSON-shaped data, as at the sandbox boundary itself; faults travel as their kind
 * and message (SandboxFault is rebuilt on the other side).
 */
import {
  SandboxFault,
  type DeferredFields,
  type FaultKind,
  type LogLevel,
  type SandboxLimits,
} from "../types.ts";

export interface FaultData {
  kind: FaultKind;
  message: string;
  /** The plugin's own error for exceptions ({ name, message, stack }), when it is plain data. */
  cause?: unknown;
}

/** Host thread → worker. */
export type ToWorker =
  | {
      t: "load";
      module: number;
      filename: string;
      code: string;
      limits: SandboxLimits;
      env: Record<string, string>;
      exec: boolean;
      dataDir: string;
    }
  | {
      t: "call";
      module: number;
      call: number;
      name: string;
      args: string;
      /** The lazy fields' texts (lazy-fields.ts): the worker cannot call back for them. */
      lazy: Readonly<Record<string, string>> | undefined;
      deferred: DeferredFields | undefined;
    }
  /** The answer to a host request: `json` is the result as JSON text (undefined for undefined). */
  | { t: "answer"; module: number; request: number; ok: true; json: string | undefined }
  | { t: "answer"; module: number; request: number; ok: false; message: string }
  | { t: "heap"; module: number }
  | { t: "dispose"; module: number };

/** Worker → host thread. */
export type FromWorker =
  | {
      t: "loaded";
      module: number;
      functions: [string, number][];
      values: Record<string, unknown>;
      heap: number;
    }
  | { t: "loadFailed"; module: number; fault: FaultData }
  | { t: "result"; module: number; call: number; ok: true; value: unknown }
  | { t: "result"; module: number; call: number; ok: false; fault: FaultData }
  | { t: "log"; module: number; level: LogLevel; text: string }
  /** A host service (HostCapabilities.call) the sandbox started. */
  | { t: "host"; module: number; request: number; name: string; args: unknown[] }
  | { t: "heap"; module: number; bytes: number }
  /** A fatal fault stopped the module; sent before the results of the calls it failed. */
  | { t: "died"; module: number; fault: FaultData };

/**
 * A call's arguments as they travel (QuickJS has no structured clone): a JSON array, trailing
 * undefined arguments left out rather than turned into null. Throws SandboxFault("exception").
 */
export function argumentsJson(name: string, args: unknown[]): string {
  let end = args.length;
  while (end > 0 && args[end - 1] === undefined) end--;
  try {
    return JSON.stringify(args.slice(0, end));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new SandboxFault("exception", `arguments for ${name} are not JSON data: ${why}`);
  }
}

/** Anything thrown in the worker, as a fault the host can rebuild. */
export function faultData(error: unknown): FaultData {
  if (!(error instanceof SandboxFault)) {
    return { kind: "exception", message: error instanceof Error ? error.message : String(error) };
  }
  const { cause } = error;
  const plain = cause !== null && typeof cause === "object" && !(cause instanceof Error);
  return plain
    ? { kind: error.kind, message: error.message, cause }
    : { kind: error.kind, message: error.message };
}

export function toFault(data: FaultData): SandboxFault {
  return new SandboxFault(
    data.kind,
    data.message,
    data.cause === undefined ? undefined : { cause: data.cause },
  );
}
