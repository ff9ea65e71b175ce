// The renderer's Content-Security-Policy (ENGINEERING.md §6). One source of truth:
// - electron.vite.config.ts writes it into the built index.html as a <meta> (so `islet serve`
//   and any static server get it too);
// - main/electron/protocol.ts sends it as a response header for every app:// page.
// Monaco (later) needs inline styles and same-origin workers; nothing may come from elsewhere.
// This file must stay free of imports: the Vite config and plain Node load it.

const base: Record<string, string> = {
  "default-src": "'self'",
  "script-src": "'self'",
  "style-src": "'self' 'unsafe-inline'",
  "worker-src": "'self'",
  "font-src": "'self' data:",
  "img-src": "'self' data:",
  "connect-src": "'self'",
  "object-src": "'none'",
  "base-uri": "'none'",
  "form-action": "'none'",
};

function serialize(directives: Record<string, string>): string {
  return Object.entries(directives)
    .map(([name, value]) => `${name} ${value}`)
    .join("; ");
}

/** Policy for a <meta http-equiv> tag (frame-ancestors is ignored there, so it is left out). */
export const RENDERER_CSP_META = serialize(base);

/** Policy for the Content-Security-Policy response header. */
export const RENDERER_CSP_HEADER = serialize({ ...base, "frame-ancestors": "'none'" });
