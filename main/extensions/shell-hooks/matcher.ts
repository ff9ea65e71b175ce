/**
 * Claude Code's matcher rule: empty or `*` matches everything; only letters, digits, `_`, `-`,
 * space, `|` and `,` means exact names separated by `|` or `,`; anything else is an unanchored
 * JavaScript regex. A regex that does not compile matches nothing (reported once at load).
 */
const EXACT = /^[A-Za-z0-9_\- |,]*$/;

export type Matcher = (name: string) => boolean;

export function compileMatcher(matcher: string): { match: Matcher; error?: string } {
  const m = matcher.trim();
  if (m === "" || m === "*") return { match: () => true };
  if (EXACT.test(m)) {
    const names = new Set(
      m
        .split(/[|,]/)
        .map((s) => s.trim())
        .filter((s) => s !== ""),
    );
    return { match: (name) => names.has(name) };
  }
  try {
    const re = new RegExp(m);
    return { match: (name) => re.test(name) };
  } catch (err) {
    return {
      match: () => false,
      error: `matcher "${m}" is not a valid regex: ${(err as Error).message}`,
    };
  }
}
