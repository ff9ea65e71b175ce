/**
 * Test support: real git servers on 127.0.0.1 for the bare repositories of git-repos.ts.
 *
 *   await using repos = await gitRepos();
 *   const pack = await repos.create("islet-plugin-hello", pluginFiles(""));
 *   pack.fileUrl                                     // file:///tmp/…/served/islet-plugin-hello.git
 *   await using daemon = await startGitDaemon(repos.served);
 *   daemon.url("islet-plugin-hello")                 // git://127.0.0.1:PORT/islet-plugin-hello.git
 *   await using http = await startGitHttp(repos.served, { token: "s3cret" });
 *   http.url("islet-plugin-hello")                   // http://127.0.0.1:PORT/islet-plugin-hello.git
 *
 * The HTTP server runs `git http-backend` (smart HTTP, CGI) and, with a token, answers 401 with
 * WWW-Authenticate unless the request carries it (Basic auth with the token as password, any user
 * name, or `Authorization: Bearer TOKEN`). Every request is recorded with the credentials it
 * carried, so a test can prove a token was, or was never, sent. Each server's `close()` (or
 * `await using`) stops it and the processes it started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { mkdir, writeFile } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { gitTestEnv } from "./git-repos.ts";

export * from "./git-repos.ts";

export interface GitServer {
  port: number;
  /** The clone URL of `<name>.git` (or of `name` as given when it already ends in .git). */
  url(name: string): string;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const repoPath = (name: string) => (name.endsWith(".git") ? name : `${name}.git`);

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Stops a child started in its own process group, and everything it started. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    child.kill("SIGTERM");
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      // already gone
    }
  }, 2000);
  await exited;
  clearTimeout(timer);
}

/** `git daemon` exporting every repository under `base` (read-only), on 127.0.0.1. */
export async function startGitDaemon(base: string): Promise<GitServer> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    const child = spawn(
      "git",
      [
        "daemon",
        "--listen=127.0.0.1",
        `--port=${port}`,
        "--export-all",
        "--reuseaddr",
        "--informative-errors",
        `--base-path=${base}`,
        "--verbose",
        base,
      ],
      { env: gitTestEnv(), stdio: ["ignore", "ignore", "pipe"], detached: true },
    );
    let stderr = "";
    const ready = await new Promise<boolean>((resolve) => {
      child.stderr!.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("Ready to rumble")) resolve(true);
      });
      child.once("exit", () => resolve(false));
    });
    if (ready) {
      const close = () => stopGroup(child);
      return {
        port,
        url: (name) => `git://127.0.0.1:${port}/${repoPath(name)}`,
        close,
        [Symbol.asyncDispose]: close,
      };
    }
    // Another process took the port between freePort() and the daemon's bind: try another.
    if (attempt >= 4) throw new Error(`git daemon did not start: ${stderr.trim()}`);
  }
}

export interface HttpRequestRecord {
  method: string;
  /** Path and query, e.g. /pack.git/info/refs?service=git-upload-pack. */
  url: string;
  /** From Basic auth. */
  user?: string;
  /** The password of Basic auth, or the Bearer token. */
  secret?: string;
  /** Whether the request was let through. */
  authorized: boolean;
}

export interface GitHttpServer extends GitServer {
  /** Every request received, in order. */
  requests: HttpRequestRecord[];
}

function credentials(req: IncomingMessage): { user?: string; secret?: string } {
  const header = req.headers.authorization ?? "";
  const basic = /^Basic\s+(\S+)$/i.exec(header);
  if (basic) {
    const text = Buffer.from(basic[1], "base64").toString("utf8");
    const colon = text.indexOf(":");
    return colon < 0
      ? { user: text }
      : { user: text.slice(0, colon), secret: text.slice(colon + 1) };
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(header);
  return bearer ? { secret: bearer[1] } : {};
}

/** Runs `git http-backend` for one request (CGI: environment in, headers + body out). */
function serveWithBackend(
  base: string,
  req: IncomingMessage,
  res: ServerResponse,
  user: string | undefined,
): void {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const env: NodeJS.ProcessEnv = gitTestEnv({
    GIT_PROJECT_ROOT: base,
    GIT_HTTP_EXPORT_ALL: "1",
    PATH_INFO: decodeURIComponent(url.pathname),
    QUERY_STRING: url.search.slice(1),
    REQUEST_METHOD: req.method ?? "GET",
    CONTENT_TYPE: req.headers["content-type"] ?? "",
    REMOTE_ADDR: req.socket.remoteAddress ?? "127.0.0.1",
    ...(user ? { REMOTE_USER: user } : {}),
    ...(req.headers["content-length"] ? { CONTENT_LENGTH: req.headers["content-length"] } : {}),
    ...(req.headers["content-encoding"]
      ? { HTTP_CONTENT_ENCODING: String(req.headers["content-encoding"]) }
      : {}),
    ...(req.headers["git-protocol"] ? { GIT_PROTOCOL: String(req.headers["git-protocol"]) } : {}),
  });
  const child = spawn("git", ["http-backend"], { env, stdio: ["pipe", "pipe", "ignore"] });
  req.pipe(child.stdin!);
  child.stdin!.on("error", () => undefined);
  let head = Buffer.alloc(0);
  let headersSent = false;
  child.stdout!.on("data", (chunk: Buffer) => {
    if (headersSent) {
      res.write(chunk);
      return;
    }
    head = Buffer.concat([head, chunk]);
    const end = head.indexOf("\r\n\r\n");
    const endLf = head.indexOf("\n\n");
    const cut = end >= 0 ? end : endLf;
    if (cut < 0) return;
    const sep = end >= 0 ? 4 : 2;
    let status = 200;
    for (const line of head.subarray(0, cut).toString("latin1").split(/\r?\n/)) {
      const colon = line.indexOf(":");
      if (colon < 0) continue;
      const key = line.slice(0, colon).trim();
      const value = line.slice(colon + 1).trim();
      if (key.toLowerCase() === "status") status = Number.parseInt(value, 10) || 200;
      else res.setHeader(key, value);
    }
    res.writeHead(status);
    headersSent = true;
    res.write(head.subarray(cut + sep));
  });
  child.once("close", () => {
    if (!headersSent) res.writeHead(502).end("git http-backend failed\n");
    else res.end();
  });
}

/**
 * Smart HTTP for every repository under `base`, on 127.0.0.1. With `token`, only requests that
 * carry it are served (Basic with the token as password, or Bearer); others get 401.
 */
export async function startGitHttp(
  base: string,
  opts: { token?: string } = {},
): Promise<GitHttpServer> {
  const requests: HttpRequestRecord[] = [];
  const server = createServer((req, res) => {
    const { user, secret } = credentials(req);
    const authorized = opts.token === undefined || secret === opts.token;
    requests.push({
      method: req.method ?? "GET",
      url: req.url ?? "/",
      ...(user !== undefined ? { user } : {}),
      ...(secret !== undefined ? { secret } : {}),
      authorized,
    });
    if (!authorized) {
      req.resume();
      res.writeHead(401, {
        "WWW-Authenticate": 'Basic realm="islet test git"',
        "Content-Type": "text/plain",
      });
      res.end("authentication required\n");
      return;
    }
    serveWithBackend(base, req, res, user);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    port,
    url: (name) => `http://127.0.0.1:${port}/${repoPath(name)}`,
    requests,
    close,
    [Symbol.asyncDispose]: close,
  };
}

/**
 * A git home whose global config has a credential helper (`git credential-store`) knowing
 * `username`/`password` for `url`'s host: the `git credential fill` step of the auth chain.
 * Returns the environment to give the code under test (HOME and GIT_CONFIG_GLOBAL).
 */
export async function credentialHome(
  dir: string,
  url: string,
  username: string,
  password: string,
): Promise<{ HOME: string; GIT_CONFIG_GLOBAL: string }> {
  await mkdir(dir, { recursive: true });
  const store = path.join(dir, ".git-credentials");
  const u = new URL(url);
  const entry = `${u.protocol}//${encodeURIComponent(username)}:${encodeURIComponent(password)}@${u.host}\n`;
  await writeFile(store, entry, { mode: 0o600 });
  const config = path.join(dir, ".gitconfig");
  await writeFile(config, `[credential]\n\thelper = store --file=${store}\n`);
  return { HOME: dir, GIT_CONFIG_GLOBAL: config };
}
