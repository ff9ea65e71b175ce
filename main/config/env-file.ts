/** `--env-file` (default secrets.env): KEY=VALUE lines for API keys in headless use. */
import { readFileSync } from "node:fs";

/** Parses dotenv-style text: comments, `export `, single/double quotes, \n escapes in double quotes. */
export function parseEnvFile(text: string, file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) throw new Error(`${file}:${i + 1}: expected KEY=VALUE`);
    let value = m[2];
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) {
      value = value.slice(1, -1).replace(/\\n/g, "\n").replace(/\\"/g, '"');
    } else if (value.startsWith("'") && value.endsWith("'") && value.length >= 2) {
      value = value.slice(1, -1);
    } else {
      value = value.replace(/\s+#.*$/, "");
    }
    out[m[1]] = value;
  });
  return out;
}

/**
 * Reads the env file. A missing default file is fine (returns {}); a missing file the user named
 * explicitly is an error.
 */
export function loadEnvFile(file: string, explicit: boolean): Record<string, string> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if (!explicit && (err as NodeJS.ErrnoException).code === "ENOENT") return {};
    const code = (err as NodeJS.ErrnoException).code ?? String(err);
    throw new Error(`${file}: cannot read env file (${code})`, { cause: err });
  }
  return parseEnvFile(text, file);
}
