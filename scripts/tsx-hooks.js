// `node --import ./scripts/tsx-hooks.js`: lets node:test load the renderer's components. Node
// strips the types of .ts files but does not compile JSX, so .tsx files go through esbuild (JSX
// as React's automatic runtime, as Vite builds it); a .css import is an empty module (a DOM test
// sees no styles). Every other file loads as Node loads it.
import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

registerHooks({
  load(url, context, nextLoad) {
    if (!url.startsWith("file:")) return nextLoad(url, context);
    const { pathname } = new URL(url);
    if (pathname.endsWith(".css")) return { format: "module", source: "", shortCircuit: true };
    if (!pathname.endsWith(".tsx")) return nextLoad(url, context);
    const file = fileURLToPath(url);
    const { code } = transformSync(readFileSync(file, "utf8"), {
      loader: "tsx",
      jsx: "automatic",
      format: "esm",
      target: "node24",
      sourcefile: file,
      sourcemap: "inline",
    });
    return { format: "module", source: code, shortCircuit: true };
  },
});
