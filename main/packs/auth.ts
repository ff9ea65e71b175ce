/**
 * The auth chain (seed 000 "Install from git"), tried in order until one works:
 *   https/http: no credentials; then GITLAB_TOKEN, GITHUB_TOKEN, GIT_TOKEN; then `git credential
 *   fill` (the user's own credential helpers);
 *   ssh: the SSH agent, then ~/.ssh/id_ed25519, id_rsa, id_ecdsa.
 * A token travels only in an HTTP header set through git's environment (never in a URL, an
 * argument or a file), only over https (or http to this machine), and only to its own host:
 * GITHUB_TOKEN to github.com (or GH_HOST), GITLAB_TOKEN to gitlab.com (or GITLAB_HOST), so a
 * URL naming another server cannot collect it. GIT_TOKEN is the user's token for any host.
 * Git never prompts: no terminal prompt, no askpass, ssh in BatchMode.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { GitSource } from "./source.ts";

export interface AuthAttempt {
  /** What the error names when everything failed: "no credentials", "GIT_TOKEN", … */
  label: string;
  /** git config entries given through the environment (GIT_CONFIG_COUNT/KEY/VALUE). */
  config: [string, string][];
  /** Environment for this attempt (GIT_SSH_COMMAND…); `null` removes a variable. */
  env: Record<string, string | null>;
  /** Values that must never appear in a message. */
  secrets: string[];
}

/** Config that resets the user's credential helpers: an attempt that must not fall back on them. */
const NO_HELPERS: [string, string] = ["credential.helper", ""];

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function hostname(host: string): string {
  return host.replace(/:\d+$/, "").toLowerCase();
}

function hostMatches(host: string, wanted: string | undefined): boolean {
  if (!wanted) return false;
  const w = wanted
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/.*$/, "");
  return host.toLowerCase() === w || hostname(host) === w;
}

interface TokenRule {
  variable: string;
  /** The hosts it may be sent to. */
  hosts: (env: NodeJS.ProcessEnv) => (string | undefined)[];
  /** Basic auth user name the service expects with a token. */
  user: string;
}

const TOKENS: TokenRule[] = [
  { variable: "GITLAB_TOKEN", hosts: (e) => ["gitlab.com", e.GITLAB_HOST], user: "oauth2" },
  { variable: "GITHUB_TOKEN", hosts: (e) => ["github.com", e.GH_HOST], user: "x-access-token" },
];

function basicHeader(user: string, token: string): string {
  return `Authorization: Basic ${Buffer.from(`${user}:${token}`).toString("base64")}`;
}

function tokenAttempt(
  source: GitSource,
  variable: string,
  user: string,
  token: string,
): AuthAttempt {
  const scheme = source.transport === "http" ? "http" : "https";
  const header = basicHeader(source.user ?? user, token);
  return {
    label: variable,
    // Scoped to this server: git sends the header to no other URL.
    config: [NO_HELPERS, [`http.${scheme}://${source.host}/.extraHeader`, header]],
    env: {},
    secrets: [token, header, header.slice("Authorization: Basic ".length)],
  };
}

function httpAttempts(
  source: GitSource,
  env: NodeJS.ProcessEnv,
): { attempts: AuthAttempt[]; notes: string[] } {
  const attempts: AuthAttempt[] = [
    { label: "no credentials", config: [NO_HELPERS], env: {}, secrets: [] },
  ];
  const notes: string[] = [];
  const tokensAllowed = source.transport === "https" || LOOPBACK.has(hostname(source.host));
  for (const rule of TOKENS) {
    const token = env[rule.variable];
    if (!token) continue;
    const hosts = rule.hosts(env).filter((h): h is string => Boolean(h));
    if (tokensAllowed && hosts.some((h) => hostMatches(source.host, h)))
      attempts.push(tokenAttempt(source, rule.variable, rule.user, token));
    else notes.push(`${rule.variable} is only sent to ${hosts.join(" or ")}`);
  }
  const generic = env.GIT_TOKEN;
  if (generic && tokensAllowed) attempts.push(tokenAttempt(source, "GIT_TOKEN", "git", generic));
  else if (generic) notes.push("GIT_TOKEN is not sent over plain http");
  attempts.push({ label: "git credential fill", config: [], env: {}, secrets: [] });
  return { attempts, notes };
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const SSH_BASE = "ssh -o BatchMode=yes -o ConnectTimeout=30";

function sshAttempts(env: NodeJS.ProcessEnv): { attempts: AuthAttempt[]; notes: string[] } {
  if (env.GIT_SSH_COMMAND || env.GIT_SSH)
    return {
      attempts: [
        {
          label: env.GIT_SSH_COMMAND ? "your GIT_SSH_COMMAND" : "your GIT_SSH",
          config: [],
          env: {},
          secrets: [],
        },
      ],
      notes: [],
    };
  const attempts: AuthAttempt[] = [];
  if (env.SSH_AUTH_SOCK)
    attempts.push({
      label: "SSH agent",
      config: [],
      env: { GIT_SSH_COMMAND: SSH_BASE },
      secrets: [],
    });
  const home = env.HOME ?? env.USERPROFILE;
  for (const key of ["id_ed25519", "id_rsa", "id_ecdsa"]) {
    const file = home ? path.join(home, ".ssh", key) : "";
    if (!file || !existsSync(file)) continue;
    attempts.push({
      label: `~/.ssh/${key}`,
      config: [],
      env: {
        GIT_SSH_COMMAND: `${SSH_BASE} -o IdentitiesOnly=yes -o IdentityAgent=none -i ${quote(file)}`,
        SSH_AUTH_SOCK: null,
      },
      secrets: [],
    });
  }
  if (attempts.length === 0)
    attempts.push({
      label: "ssh (no agent, no key in ~/.ssh)",
      config: [],
      env: { GIT_SSH_COMMAND: SSH_BASE },
      secrets: [],
    });
  return { attempts, notes: [] };
}

/** The attempts for `source`, in order, and notes on tokens held back (for the error message). */
export function authChain(
  source: GitSource,
  env: NodeJS.ProcessEnv,
): { attempts: AuthAttempt[]; notes: string[] } {
  if (source.transport === "https" || source.transport === "http") return httpAttempts(source, env);
  if (source.transport === "ssh") return sshAttempts(env);
  return { attempts: [{ label: "no credentials", config: [], env: {}, secrets: [] }], notes: [] };
}
