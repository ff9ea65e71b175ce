/**
 * `${VAR}` and `${VAR:-default}` in MCP server definitions, as Claude Code expands them in
 * `.mcp.json` (command, args, env, url, headers). An unset variable without a default is
 * collected in `missing` (the server is then reported, not started with a hole in its command).
 */
export function expandVars(
  text: string,
  env: Record<string, string | undefined>,
  missing: Set<string>,
): string {
  return text.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (_all, name: string, fallback: string | undefined) => {
      const value = env[name];
      if (value !== undefined && value !== "") return value;
      if (fallback !== undefined) return fallback;
      missing.add(name);
      return "";
    },
  );
}
