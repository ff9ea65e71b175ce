// electron-vite with the fixed top-level layout (SPEC §2, ENGINEERING.md §4):
//   main/index.ts     → out/main/index.js      (ESM, "type": "module")
//   preload/index.ts  → out/preload/index.cjs  (CJS: a sandboxed preload must be CommonJS)
//   renderer/         → out/renderer/index.html
// `electron-vite build` needs no Electron binary; `dev`/`preview` do.
import { execFileSync } from "node:child_process";
import { resolve } from "node:path";
import { defineConfig } from "electron-vite";
import type { Plugin } from "vite";
import react from "@vitejs/plugin-react";
import { RENDERER_CSP_META } from "./main/web/csp.ts";

const root = import.meta.dirname;

// Native or engine-heavy packages the main bundle must load from node_modules at run time:
// native addons cannot be bundled, esbuild spawns its platform binary, quickjs loads a .wasm.
// (Packages in package.json "dependencies" are externalized by electron-vite already; this list
// also covers the ones that are not, so they are never inlined by accident.)
const mainExternal: (string | RegExp)[] = [
  /^isolated-vm(\/.*)?$/,
  /^esbuild(\/.*)?$/,
  /^@esbuild\//,
  /^quickjs-emscripten(-core)?(\/.*)?$/,
  /^@jitl\//,
  /^electron-store(\/.*)?$/,
  /^playwright-core(\/.*)?$/,
  /^node-llama-cpp(\/.*)?$/,
  /^@node-llama-cpp\//,
  /^fsevents$/,
  /\.node$/,
];

// The CSP <meta> goes into the built page only (right after <meta charset>, before any script):
// Vite's dev server injects an inline script (React refresh preamble) that a strict policy
// would block. In Electron the same policy also arrives as a response header (protocol.ts).
function cspMeta(): Plugin {
  const anchor = /<meta charset="UTF-8" \/>/i;
  return {
    name: "islet:csp-meta",
    apply: "build",
    transformIndexHtml: {
      order: "pre",
      handler(html) {
        if (!anchor.test(html))
          throw new Error('renderer/index.html needs <meta charset="UTF-8" />');
        const meta = `<meta http-equiv="Content-Security-Policy" content="${RENDERER_CSP_META}" />`;
        return html.replace(anchor, (charset) => `${charset}\n    ${meta}`);
      },
    },
  };
}

// `@islet/sdk`'s declarations for the plugin editor's Monaco, generated at build time from
// plugins/sdk (the packaged app has no TypeScript compiler to generate them at run time).
function sdkTypes(): Plugin {
  const id = "virtual:islet-sdk-types";
  return {
    name: "islet:sdk-types",
    resolveId: { filter: { id: /^virtual:islet-sdk-types$/ }, handler: () => `\0${id}` },
    load: {
      filter: { id: /^\0virtual:islet-sdk-types$/ },
      handler() {
        const script = resolve(root, "plugins/sdk/declarations.ts");
        const dts = execFileSync(process.execPath, ["--no-warnings", script], { encoding: "utf8" });
        return `export default ${JSON.stringify(dts)};`;
      },
    },
  };
}

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, "out/main"),
      target: "node24",
      sourcemap: true,
      rolldownOptions: {
        input: {
          index: resolve(root, "main/index.ts"),
          // Run in a disposable utility process before plugins load (main/electron/sandbox-probe.ts).
          "isolated-vm-probe": resolve(root, "main/sandbox/probe/isolated-vm-probe.ts"),
          // The QuickJS plugins' worker thread, found next to the bundle at run time
          // (main/sandbox/quickjs/link.ts).
          "quickjs-worker": resolve(root, "main/sandbox/quickjs/worker.ts"),
          // Grep and Glob search off the engine's thread (main/tools/builtin/search-pool.ts).
          "search-worker": resolve(root, "main/tools/builtin/search-worker.ts"),
          // The embedded model runtime's own process (main/providers/local/runtime-process.ts).
          "local-runtime": resolve(root, "main/providers/local/runtime/main.ts"),
        },
        external: mainExternal,
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, "out/preload"),
      target: "node24",
      // A sandboxed preload can only require('electron') and a few builtins: bundle everything.
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(root, "preload/index.ts") },
        output: { format: "cjs", entryFileNames: "[name].cjs" },
      },
    },
  },
  renderer: {
    root: resolve(root, "renderer"),
    base: "./",
    plugins: [react(), cspMeta(), sdkTypes()],
    build: {
      outDir: resolve(root, "out/renderer"),
      target: "chrome140",
      minify: true,
      sourcemap: true,
      rolldownOptions: {
        input: { index: resolve(root, "renderer/index.html") },
      },
    },
  },
});
