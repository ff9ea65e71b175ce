/**
 * Runs the system git through simple-git with an environment that never prompts and never leaks:
 * the user's variables minus anything that would point git at another repository, prompts off,
 * askpass off, only the transports packs use, and this attempt's credentials as config in the
 * environment (GIT_CONFIG_COUNT), never on the command line where `ps` would show them.
 */
import { spawn } from "node:child_process";
import { simpleGit, type SimpleGitProgressEvent } from "simple-git";
import type { AuthAttempt } from "./auth.ts";

/** git variables of the user's that still apply (config location, ssh, TLS); the rest are dropped. */
const KEPT_GIT_VARS = new Set([
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_NOSYSTEM",
  "GIT_CONFIG_SYSTEM",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_SSH_VARIANT",
  "GIT_SSL_CAINFO",
  "GIT_SSL_CAPATH",
  "GIT_SSL_NO_VERIFY",
  "GIT_EXEC_PATH",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
]);

/** Tokens are the auth chain's business: git itself never needs to see them. */
const TOKEN_VARS = new Set(["GITHUB_TOKEN", "GITLAB_TOKEN", "GIT_TOKEN"]);

/**
 * Programs git could start for a person (editors, pagers, askpass), which a non-interactive run
 * never wants — and which simple-git refuses to run with (npm sets EDITOR for its scripts).
 */
const NOT_FOR_GIT = new Set([
  "SSH_ASKPASS",
  "GCM_INTERACTIVE",
  "EDITOR",
  "VISUAL",
  "PAGER",
  "PREFIX",
]);

const BASE_CONFIG: [string, string][] = [
  ["core.askPass", ""],
  ["advice.detachedHead", "false"],
  // A server that stops sending for a minute is given up on instead of hanging the install.
  ["http.lowSpeedLimit", "1"],
  ["http.lowSpeedTime", "60"],
  // A fetch would start `git maintenance run --auto` (or `gc --auto`) after it: a process of its
  // own on every update, for a repository that lives until the next update replaces it.
  ["maintenance.auto", "false"],
  ["gc.auto", "0"],
];

export function gitEnv(user: NodeJS.ProcessEnv, attempt?: AuthAttempt): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(user)) {
    if (value === undefined || TOKEN_VARS.has(key)) continue;
    if (key.startsWith("GIT_") && !KEPT_GIT_VARS.has(key)) continue;
    if (NOT_FOR_GIT.has(key)) continue;
    env[key] = value;
  }
  Object.assign(env, {
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "",
    SSH_ASKPASS_REQUIRE: "never",
    GCM_INTERACTIVE: "never",
    GIT_ALLOW_PROTOCOL: "file:git:http:https:ssh",
    // Messages in English, so failures can be told apart (auth, unreachable, missing ref).
    LC_ALL: "C",
    LANGUAGE: "C",
  });
  for (const [key, value] of Object.entries(attempt?.env ?? {})) {
    if (value === null) delete env[key];
    else env[key] = value;
  }
  const config = [...BASE_CONFIG, ...(attempt?.config ?? [])];
  env.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}

export interface GitRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  attempt?: AuthAttempt;
  signal?: AbortSignal;
  onProgress?(event: SimpleGitProgressEvent): void;
}

/** git's stderr (or message) of a failed run. */
export class GitRunError extends Error {
  override name = "GitRunError";
}

/** Runs `git args…` in `cwd`; resolves with stdout, rejects with a GitRunError carrying stderr. */
export async function runGit(args: string[], opts: GitRunOptions): Promise<string> {
  const git = simpleGit({
    baseDir: opts.cwd,
    ...(opts.signal ? { abort: opts.signal } : {}),
    ...(opts.onProgress ? { progress: opts.onProgress } : {}),
    // No output for 5 minutes: the remote is stuck.
    timeout: { block: 5 * 60_000 },
    // These "unsafe" settings are ours (the auth chain's environment), never user input: the
    // user's URL, ref and subpath are checked in source.ts and passed as plain arguments.
    unsafe: {
      allowUnsafeSshCommand: true,
      allowUnsafeConfigEnvCount: true,
      allowUnsafeAskPass: true,
      allowUnsafeCredentialHelper: true,
      allowUnsafeProtocolOverride: true,
      // The user's own GIT_CONFIG_GLOBAL (where their credential helpers are configured).
      allowUnsafeConfigPaths: true,
      // Only ever our own empty `--template=` (a clone without sample hooks), never user input.
      allowUnsafeTemplateDir: true,
    },
    trimmed: false,
  }).env(gitEnv(opts.env, opts.attempt));
  try {
    return await git.raw(args);
  } catch (err) {
    throw new GitRunError((err as Error).message);
  }
}

export interface StartedGit {
  /** Writes `input` to git's stdin and closes it; resolves with stdout. */
  run(input: string): Promise<string>;
  /** Ends a process whose input never came; resolves once it has exited. */
  stop(): Promise<void>;
}

/**
 * Starts `git args…` now and gives it its input later (`--stdin`): started while a fetch waits on
 * the network, its start-up is paid for by then. The same environment as runGit, through
 * child_process: simple-git cannot write to a command's stdin.
 */
export function startGit(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv },
): StartedGit {
  const child = spawn("git", args, {
    cwd: opts.cwd,
    env: gitEnv(opts.env),
    stdio: ["pipe", "pipe", "pipe"],
    windowsHide: true,
  });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on("data", (b: Buffer) => out.push(b));
  child.stderr.on("data", (b: Buffer) => err.push(b));
  child.stdin.on("error", () => undefined); // git gone before its input: the exit says why
  const exited = new Promise<{ code: number | null; error?: NodeJS.ErrnoException }>((resolve) => {
    child.on("error", (error) => resolve({ code: null, error }));
    child.on("close", (code) => resolve({ code }));
  });
  return {
    async run(input) {
      child.stdin.end(input);
      const { code, error } = await exited;
      if (code === 0) return Buffer.concat(out).toString("utf8");
      const stderr = Buffer.concat(err).toString("utf8").trim();
      throw new GitRunError(
        error ? `spawn git ${error.code ?? error.message}` : stderr || `git exited with ${code}`,
      );
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill();
      await exited;
    },
  };
}
