// Serves the built renderer (out/renderer) from the privileged app:// scheme instead of file://
// (ENGINEERING.md §6–7): a real origin for CSP and sender checks, no file:// privileges, no
// path escapes, and the CSP sent as a header on every page.
import { readFile } from "node:fs/promises";
import { extname, join } from "node:path";
import { protocol } from "electron";
import { RENDERER_CSP_HEADER } from "../web/csp.ts";
import { resolveInside } from "./url-guards.ts";

export const APP_SCHEME = "app";
export const APP_HOST = "islet";
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

const MIME_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
  ".txt": "text/plain; charset=utf-8",
};

/** Must run before the app's `ready` event (Electron only accepts one call). */
export function registerAppSchemePrivileges(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // standard: real origin and relative URLs; secure: a secure context; supportFetchAPI:
      // fetch() of our own assets. Not corsEnabled and not bypassCSP on purpose.
      privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
    },
  ]);
}

function textResponse(status: number, body: string): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff" },
  });
}

/** Call once, after `ready`, on the session that hosts the window. */
export function handleAppScheme(rendererRoot: string): void {
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return textResponse(404, "Not found");
    if (request.method !== "GET" && request.method !== "HEAD") {
      return textResponse(405, "Method not allowed");
    }
    const file = resolveInside(rendererRoot, url.pathname);
    if (file === null) return textResponse(403, "Forbidden");
    let target = file;
    let body: Buffer;
    try {
      body = await readFile(target);
    } catch {
      // Paths without an extension are app routes: serve the single page.
      if (extname(file) !== "") return textResponse(404, "Not found");
      target = join(rendererRoot, "index.html");
      try {
        body = await readFile(target);
      } catch {
        return textResponse(404, "Not found");
      }
    }
    const headers = {
      "content-type": MIME_TYPES[extname(target).toLowerCase()] ?? "application/octet-stream",
      "x-content-type-options": "nosniff",
      "cross-origin-opener-policy": "same-origin",
      "referrer-policy": "no-referrer",
      // On every response, so workers (whose policy comes with their script) get it too.
      "content-security-policy": RENDERER_CSP_HEADER,
    };
    return new Response(request.method === "HEAD" ? null : new Uint8Array(body), { headers });
  });
}
