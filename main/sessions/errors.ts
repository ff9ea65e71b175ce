/** Errors the session store reports, with a code callers (CLI, bridge) can branch on. */

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
  constructor(code: SessionErrorCode, message: string) {
    super(message);
    this.name = "SessionError";
    this.code = code;
  }
}

export function isErrno(err: unknown, code: string): boolean {
  return err instanceof Error && (err as NodeJS.ErrnoException).code === code;
}
