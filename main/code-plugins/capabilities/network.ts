/**
 * fetch for plugins, host side: only to hosts the plugin lists in `permissions.network` (every
 * redirect hop included), with a timeout, a response size cap, and abort when the plugin goes
 * away. Bodies are text; headers travel as [name, value] pairs.
 */
import { z } from "zod";
import type { NetworkPermission } from "./permissions.ts";

export interface NetworkLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  maxRedirects: number;
}

export const DEFAULT_NETWORK_LIMITS: NetworkLimits = {
  timeoutMs: 30_000,
  maxResponseBytes: 10 * 1024 * 1024,
  maxRedirects: 5,
};

export const fetchRequestSchema = z.object({
  url: z.string(),
  method: z.string().default("GET"),
  headers: z.array(z.tuple([z.string(), z.string()])).default([]),
  body: z.string().optional(),
});
export type FetchRequest = z.infer<typeof fetchRequestSchema>;

export interface FetchResponse {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  url: string;
  redirected: boolean;
}

// Set by the host, never by the plugin: a Host header would reach another site behind the same
// address than the one the permission names.
const HOST_ONLY_HEADERS = new Set([
  "host",
  "connection",
  "content-length",
  "transfer-encoding",
  "keep-alive",
  "upgrade",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
]);

/** Does a permission entry ("api.example.com", "*.example.com", "*", "host:port") cover the URL? */
export function hostPermitted(url: URL, grants: readonly NetworkPermission[]): boolean {
  const hostname = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return grants.some(({ host }) => {
    const entry = host.trim().toLowerCase();
    if (entry === "*") return true;
    // "name:port" (IPv6 literals are bracketed, so their colons never end in ":digits").
    const withPort = /^(.+):(\d+)$/.exec(entry);
    const name = withPort?.[1] ?? entry;
    if (withPort && withPort[2] !== port) return false;
    return name.startsWith("*.") ? hostname.endsWith(name.slice(1)) : hostname === name;
  });
}

export async function pluginFetch(
  request: FetchRequest,
  opts: {
    plugin: string;
    grants: readonly NetworkPermission[];
    signal?: AbortSignal;
    limits?: Partial<NetworkLimits>;
  },
): Promise<FetchResponse> {
  const limits = { ...DEFAULT_NETWORK_LIMITS, ...opts.limits };
  const signals = [AbortSignal.timeout(limits.timeoutMs), ...(opts.signal ? [opts.signal] : [])];
  const signal = AbortSignal.any(signals);
  const headers = request.headers.filter(([name]) => !HOST_ONLY_HEADERS.has(name.toLowerCase()));
  let url = parseUrl(request.url);
  let method = request.method.toUpperCase();
  let body = request.body;

  for (let hop = 0; ; hop++) {
    if (!hostPermitted(url, opts.grants)) {
      throw new Error(
        `plugin ${opts.plugin} has no network permission for ${url.host}: add it to permissions.network in plugin.yaml with a reason`,
      );
    }
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body, signal, redirect: "manual" });
    } catch (error) {
      throw fetchError(error, url, limits.timeoutMs, signal);
    }
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      if (hop >= limits.maxRedirects)
        throw new Error(`fetch ${request.url}: more than ${limits.maxRedirects} redirects`);
      url = parseUrl(new URL(location, url).href);
      // 303 (and 301/302 for POST, as browsers do) turn into a GET without body.
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === "POST")
      ) {
        method = "GET";
        body = undefined;
      }
      continue;
    }
    const text = await readCapped(response, limits.maxResponseBytes, url).catch(
      (error: unknown) => {
        throw fetchError(error, url, limits.timeoutMs, signal);
      },
    );
    return {
      status: response.status,
      statusText: response.statusText,
      headers: [...response.headers.entries()],
      body: text,
      url: url.href,
      redirected: hop > 0,
    };
  }
}

function parseUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`fetch: "${raw}" is not an absolute URL`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`fetch: only http and https URLs can be fetched, not ${url.protocol}`);
  }
  return url;
}

async function readCapped(response: Response, maxBytes: number, url: URL): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new TooLarge(url, maxBytes);
  }
  if (response.body === null) return "";
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw new TooLarge(url, maxBytes);
    parts.push(decoder.decode(chunk, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}

class TooLarge extends Error {
  constructor(url: URL, maxBytes: number) {
    super(
      `fetch ${url.href}: the response is larger than ${Math.round(maxBytes / 1024 / 1024)} MB`,
    );
  }
}

function fetchError(error: unknown, url: URL, timeoutMs: number, signal: AbortSignal): Error {
  if (error instanceof TooLarge) return error;
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return reason instanceof DOMException && reason.name === "TimeoutError"
      ? new Error(`fetch ${url.href} timed out after ${timeoutMs} ms`)
      : new Error(
          `fetch ${url.href} was aborted: ${reason instanceof Error ? reason.message : String(reason)}`,
        );
  }
  const cause =
    error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  return new Error(
    `fetch ${url.href} failed: ${cause ?? (error instanceof Error ? error.message : String(error))}`,
  );
}
