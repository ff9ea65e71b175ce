/**
 * `islet serve`: the app's UI for a browser, on 127.0.0.1 only. The page and the bridge's
 * WebSocket need the random token from the printed URL; the Host header must name this server
 * (no DNS rebinding) and the socket's Origin must be the page it served. The static assets are
 * the public app bundle and carry no data, so they are served to anyone on loopback; every other
 * path, however spelled, needs the token (static-files.ts). `/install?…` opens an install link
 * (main/packs/link.ts) in the page: it never installs anything by itself.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { checkInstallLink, linkQueryOf } from "../packs/link.ts";
import { TOKEN_PARAM } from "../bridge/protocol.ts";
import type { BridgeService } from "../bridge/service.ts";
import { attachWebSocketBridge } from "../bridge/websocket.ts";
import { RENDERER_CSP_HEADER } from "../web/csp.ts";
import { isPublicAsset, readStatic, requestedFile } from "./static-files.ts";

/** The renderer as `npm run build` leaves it. */
export const BUILT_RENDERER = path.resolve(import.meta.dirname, "../../out/renderer");

export interface ServeOptions {
  service: BridgeService;
  /** 0 picks a free port. */
  port: number;
  rendererDir?: string;
  /** Tests pass a fixed one; otherwise 192 random bits. */
  token?: string;
}

export interface RunningServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  "Content-Security-Policy": RENDERER_CSP_HEADER,
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cross-Origin-Opener-Policy": "same-origin",
  "X-Frame-Options": "DENY",
};

function sameToken(given: string | null, token: string): boolean {
  if (given === null) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function text(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", ...SECURITY_HEADERS });
  res.end(`${body}\n`);
}

export function assertRendererBuilt(root: string = BUILT_RENDERER): void {
  if (!existsSync(path.join(root, "index.html")))
    throw new Error(
      `the UI is not built (${path.join(root, "index.html")} is missing); run \`npm run build\` first`,
    );
}

export async function startServer(opts: ServeOptions): Promise<RunningServer> {
  const root = opts.rendererDir ?? BUILT_RENDERER;
  assertRendererBuilt(root);
  const token = opts.token ?? randomBytes(24).toString("base64url");
  let port = 0;
  const hosts = () => [`127.0.0.1:${port}`, `localhost:${port}`];
  const origins = () => hosts().map((h) => `http://${h}`);

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) text(res, 500, `Islet: ${(err as Error).message}`);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!hosts().includes(req.headers.host ?? ""))
      return text(res, 403, "Islet: refused, this server answers only to 127.0.0.1 and localhost");
    if (req.method !== "GET" && req.method !== "HEAD")
      return text(res, 405, `Islet: ${req.method} is not served here`);
    const url = new URL(req.url ?? "/", `http://${req.headers.host}`);
    if (url.pathname === "/install") return installLink(url, res);
    // One canonical name per file, then one rule: only the bundle's assets go without the token.
    const name = requestedFile(url.pathname);
    if (name === null) return text(res, 404, `Islet: ${url.pathname} not found`);
    const isPublic = isPublicAsset(name);
    if (!isPublic && !sameToken(url.searchParams.get(TOKEN_PARAM), token))
      return text(
        res,
        401,
        "Islet: this page needs its access token; open the URL that `islet serve` printed",
      );
    const file = await readStatic(root, name);
    if (!file) return text(res, 404, `Islet: ${url.pathname} not found`);
    res.writeHead(200, {
      "Content-Type": file.type,
      "Content-Length": file.body.length,
      "Cache-Control": isPublic ? "no-cache" : "no-store",
      ...SECURITY_HEADERS,
    });
    res.end(req.method === "HEAD" ? undefined : file.body);
  }

  /**
   * An install link (`/install?token=…&source=…`): behind the token like the page; a good one
   * becomes the page with the link in its fragment (the page asks the person), a bad one a line.
   */
  function installLink(url: URL, res: ServerResponse): void {
    if (!sameToken(url.searchParams.get(TOKEN_PARAM), token))
      return text(res, 401, "Islet: this link needs the access token of `islet serve`'s URL");
    const params = new URLSearchParams(url.search);
    params.delete(TOKEN_PARAM);
    const checked = checkInstallLink(params.toString());
    if (!checked.ok)
      return text(
        res,
        400,
        `Islet: this install link was refused, nothing was downloaded or installed: ${checked.error}`,
      );
    const page = `/?${TOKEN_PARAM}=${encodeURIComponent(token)}#install?${linkQueryOf(checked.link)}`;
    res.writeHead(303, { Location: page, "Cache-Control": "no-store", ...SECURITY_HEADERS });
    res.end();
  }

  const bridge = attachWebSocketBridge(server, {
    service: opts.service,
    authorize(req, url) {
      if (!hosts().includes(req.headers.host ?? "")) return "wrong Host";
      if (!origins().includes(req.headers.origin ?? "")) return "the page is not from this server";
      if (!sameToken(url.searchParams.get(TOKEN_PARAM), token)) return "missing or wrong token";
      return null;
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/?${TOKEN_PARAM}=${token}`,
    port,
    token,
    async close() {
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
