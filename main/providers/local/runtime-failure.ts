/**
 * Why a local runtime call failed, before the provider words it for the user (provider-errors.ts).
 * `message` is the detail only ("it stopped responding for 16 s"), never a whole sentence.
 */
import type { TimeoutKind } from "../types.ts";
import type { FailureKind } from "./protocol.ts";

export type RuntimeFailureKind =
  FailureKind | "start" | "crash" | "hang" | "protocol" | "unloaded" | "first_token" | "idle";

/** The last line of the runtime's stderr worth repeating (llama.cpp's assert, a Node error). */
function lastLine(stderr: string): string {
  const lines = stderr
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l && !/^\s*at /.test(l));
  const line = lines.findLast((l) => /error|assert|abort|fault|memory|fail/i.test(l)) ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

export class RuntimeFailure extends Error {
  readonly kind: RuntimeFailureKind;
  /** Set for first_token and idle: the limit that fired, in ms. */
  readonly limitMs: number | undefined;

  constructor(kind: RuntimeFailureKind, message: string, limitMs?: number) {
    super(message);
    this.name = "RuntimeFailure";
    this.kind = kind;
    this.limitMs = limitMs;
  }

  get timeout(): TimeoutKind | undefined {
    return this.kind === "first_token" || this.kind === "idle" ? this.kind : undefined;
  }

  static limit(kind: "first_token" | "idle", ms: number): RuntimeFailure {
    return new RuntimeFailure(kind, `${kind} limit of ${ms} ms`, ms);
  }

  static fromExit(
    code: number | null,
    signal: NodeJS.Signals | null,
    stderr: string,
  ): RuntimeFailure {
    const said = lastLine(stderr);
    const how =
      signal === "SIGKILL"
        ? "it was killed (SIGKILL: out of memory, or stopped by another program)"
        : signal
          ? `it crashed (${signal})`
          : `it exited with code ${code}`;
    return new RuntimeFailure("crash", said ? `${how}: ${said}` : how);
  }

  static fromReport(kind: FailureKind, message: string): RuntimeFailure {
    return new RuntimeFailure(kind, message.replace(/\s+/g, " ").trim());
  }
}
