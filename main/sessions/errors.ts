/** Errors the session store reports, with a code callers (CLI, bridge) can branch on. */
import { formatProblem, type Problem } from "../host/problem.ts";

export type SessionErrorCode =
  | "not_found"
  | "ambiguous"
  | "invalid_id"
  | "invalid_record"
  | "exists"
  /** A link, a folder or a file we may not read where a session file should be. */
  | "unreadable";

export class SessionError extends Error {
  readonly code: SessionErrorCode;
  /** The problem, when it is about one file: a listing reports it whole and goes on. */
  readonly problem: Problem | undefined;
  constructor(code: SessionErrorCode, what: string | Problem) {
    super(typeof what === "string" ? what : formatProblem(what));
    this.name = "SessionError";
    this.code = code;
    this.problem = typeof what === "string" ? undefined : what;
  }
}

export function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}
