/**
 * Tells git's failures apart from its stderr (git runs with LC_ALL=C): an auth failure moves on
 * to the next credentials, anything else stops the chain with one line for the user.
 */
export type GitFailureKind =
  "auth" | "hostkey" | "missing" | "unreachable" | "ref" | "aborted" | "other";

const AUTH = [
  /Authentication failed/i,
  /could not read (Username|Password)/i,
  /terminal prompts disabled/i,
  /HTTP Basic: Access denied/i,
  /returned error: 40[13]/i,
  /Permission denied \(/i,
  /Permission denied, please try again/i,
  /invalid (username or password|credentials)/i,
  // GitHub answers a private repository without credentials as if it did not exist.
  /remote: Repository not found/i,
];
const HOSTKEY = [/Host key verification failed/i, /REMOTE HOST IDENTIFICATION HAS CHANGED/i];
const REF = [
  /Remote branch .* not found in upstream/i,
  /couldn't find remote ref/i,
  /pathspec .* did not match/i,
  /reference is not a tree/i,
  /unknown revision/i,
];
const MISSING = [
  /does not appear to be a git repository/i,
  /repository '.*' not found/i,
  /no such repository/i,
  /not exported/i,
];
const UNREACHABLE = [
  /Could not resolve host/i,
  /Connection refused/i,
  /unable to connect/i,
  /Failed to connect/i,
  /Connection timed out/i,
  /Operation timed out/i,
  /Network is unreachable/i,
  /No route to host/i,
  /unable to access/i,
  /Could not read from remote repository/i,
  /Connection reset/i,
  /early EOF/i,
];

/** The line that says what went wrong: git's last `fatal:`/`error:` line, without the prefix. */
export function gitReason(message: string): string {
  const lines = message
    .split(/\r?\n|\r/)
    .map((l) => l.trim())
    .filter(Boolean);
  const fatal = [...lines].reverse().find((l) => /^(fatal|error):/i.test(l));
  const line = fatal ?? lines.at(-1) ?? "git failed";
  return line.replace(/^(fatal|error):\s*/i, "").replace(/\.$/, "");
}

export function classifyGitFailure(message: string): GitFailureKind {
  if (/Abort signal received|Abort already signaled/i.test(message)) return "aborted";
  if (HOSTKEY.some((r) => r.test(message))) return "hostkey";
  if (AUTH.some((r) => r.test(message))) return "auth";
  if (REF.some((r) => r.test(message))) return "ref";
  if (MISSING.some((r) => r.test(message))) return "missing";
  if (UNREACHABLE.some((r) => r.test(message))) return "unreachable";
  return "other";
}

/** Removes every secret from a message before anyone sees it. */
export function scrub(message: string, secrets: readonly string[]): string {
  let out = message;
  for (const s of secrets) if (s) out = out.split(s).join("***");
  return out;
}
