/** The built renderer's files, read from disk for `islet serve`; nothing outside its folder. */
import { readFile } from "node:fs/promises";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".map": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".ttf": "font/ttf",
  ".wasm": "application/wasm",
};

export interface StaticFile {
  body: Buffer;
  type: string;
}

/**
 * The file a URL path names, relative to the renderer folder ("index.html" for "/"): decoded
 * once, empty and "." segments dropped, so every spelling of a file (`/index.html/`,
 * `/%69ndex.html`, `//index.html`) comes out the same. Null when it cannot name a file inside
 * the folder (a bad escape, "..", a backslash or NUL).
 */
export function requestedFile(urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes("\0") || decoded.includes("\\")) return null;
  const segments = decoded.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) return null;
  return segments.length === 0 ? "index.html" : segments.join("/");
}

/**
 * The bundle's assets (scripts, styles, fonts, images) carry no data: anyone on loopback may
 * fetch them. Everything else, every page above all, needs the token. An allow-list by exact
 * extension, so a spelling the file system forgives (`INDEX.HTML`, `index.html.`) is not public.
 */
export function isPublicAsset(file: string): boolean {
  const ext = path.posix.extname(file);
  return ext !== ".html" && Object.hasOwn(TYPES, ext);
}

/** A file named by requestedFile(), or null when there is none. */
export async function readStatic(root: string, file: string): Promise<StaticFile | null> {
  const full = path.resolve(root, file);
  if (!full.startsWith(root + path.sep)) return null;
  try {
    const body = await readFile(full);
    return { body, type: TYPES[path.extname(full)] ?? "application/octet-stream" };
  } catch {
    return null;
  }
}
