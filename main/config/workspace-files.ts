/**
 * The names in a workspace that something reads as configuration or runs: Islet's project home,
 * Claude Code's project MCP servers, the default env file, git's folder and Claude Code's own
 * folder. The readers take their names from here and the plugin file API refuses writes to every
 * one of them, so the two lists cannot drift apart.
 */

/** The project home in a workspace (and the global home's default name under the user's home). */
export const PROJECT_HOME_NAME = ".islet";

/** Claude Code's project MCP servers, read from the workspace's top once it is trusted. */
export const PROJECT_MCP_FILE = ".mcp.json";

/** The env file read from the workspace when no --env-file is given (API keys, base URLs). */
export const WORKSPACE_ENV_FILE = "secrets.env";

export interface ProtectedName {
  /** A file or folder name, matched against every part of a path, whatever its case. */
  name: string;
  /** What it holds, for the refusal a plugin author reads. */
  holds: string;
}

/** Never written by a plugin, wherever the name appears in a path. */
export const PROTECTED_WORKSPACE_NAMES: readonly ProtectedName[] = [
  { name: PROJECT_HOME_NAME, holds: "Islet's configuration and plugins" },
  { name: PROJECT_MCP_FILE, holds: "MCP servers Islet starts" },
  { name: WORKSPACE_ENV_FILE, holds: "the environment Islet reads its API keys from" },
  { name: ".git", holds: "git hooks and history" },
  // Islet does not read it, but Claude Code run in the same folder runs its hooks and commands.
  { name: ".claude", holds: "Claude Code's settings, hooks and commands" },
];

/**
 * A path part as the file system may see it: case folded (after NFKC, as APFS folds `ſ` to `s`),
 * and without the trailing dots and spaces or `:stream` suffix that Windows drops (`.GIT.` and
 * `.mcp.json::$DATA` name the same file).
 */
export function fileSystemName(part: string): string {
  return part
    .normalize("NFKC")
    .replace(/:.*$/, "")
    .replace(/[. ]+$/, (tail) => (part === tail ? tail : ""))
    .toLowerCase();
}

/** The protected name a path part stands for, or undefined. */
export function protectedName(part: string): ProtectedName | undefined {
  const name = fileSystemName(part);
  return PROTECTED_WORKSPACE_NAMES.find((p) => p.name.toLowerCase() === name);
}
