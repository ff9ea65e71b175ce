/**
 * A command written as one string ("dotnet test") split into its argument vector with
 * shell-quote, for manifests and runner configs. Nothing here ever reaches a shell, so anything a
 * shell would treat specially is refused rather than passed on as a surprise: operators (`;`,
 * `&&`, `|`, `>`), globs, comments (`#`, even mid-word), `$` (variables, `$(…)`) and backticks.
 * Whoever needs one of those characters literally writes the command as a list.
 */
import { parse } from "shell-quote";

export type Split = { ok: true; argv: string[] } | { ok: false; error: string };

export function splitCommandLine(text: string): Split {
  const special = /[$`]/.exec(text);
  if (special)
    return {
      ok: false,
      error: `"${special[0]}" is not allowed (no shell runs it): write the command as a list`,
    };
  if (text.includes("\0")) return { ok: false, error: "contains a NUL character" };
  const argv: string[] = [];
  for (const token of parse(text)) {
    if (typeof token === "string") {
      argv.push(token);
      continue;
    }
    const what =
      "op" in token
        ? token.op === "glob"
          ? `the glob "${token.pattern}"`
          : `the shell operator "${token.op}"`
        : `a "#" comment`;
    return {
      ok: false,
      error: `${what} is not allowed (no shell runs it): write the command as a list`,
    };
  }
  if (argv.length === 0) return { ok: false, error: "is empty" };
  return { ok: true, argv };
}

/** A command given as a string (split) or as a list of strings (taken as is). */
export function commandArgv(value: unknown): Split {
  if (typeof value === "string") return splitCommandLine(value);
  if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) {
    const argv = value as string[];
    if (argv.some((a) => a.includes("\0"))) return { ok: false, error: "contains a NUL character" };
    return { ok: true, argv: [...argv] };
  }
  return { ok: false, error: "expected text or a non-empty list of text" };
}
