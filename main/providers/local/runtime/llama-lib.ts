/**
 * node-llama-cpp's values the runtime uses, imported from the files that define them instead of
 * the package's index. The index also loads its model downloader (ipull) and the helpers of its
 * CLI: ~130 modules the runtime never calls, all on the path from the process start to the model
 * loaded. Each file is found through the index's own `import { … } from "./…"` lines, so it is
 * the module instance the rest of the package uses (`instanceof` holds) and a release that moves
 * a file still works; a name the index does not import this way is an error naming it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import type * as NodeLlamaCpp from "node-llama-cpp";

type Exports = typeof NodeLlamaCpp;

let imports: Map<string, { file: string; original: string }> | undefined;

/** Exported name → the file the index imports it from (and its name there). */
function indexImports(): Map<string, { file: string; original: string }> {
  if (imports) return imports;
  const index = createRequire(import.meta.url).resolve("node-llama-cpp");
  const source = readFileSync(index, "utf8");
  imports = new Map();
  for (const m of source.matchAll(/^import\s*\{([^}]*)\}\s*from\s*"(\.[^"]+)";/gm)) {
    for (const part of m[1].split(",")) {
      const [original, alias] = part.trim().split(/\s+as\s+/);
      if (original) imports.set(alias ?? original, { file: join(dirname(index), m[2]), original });
    }
  }
  return imports;
}

/** One of node-llama-cpp's exports, loaded from its own module. */
export async function llamaExport<K extends keyof Exports & string>(name: K): Promise<Exports[K]> {
  const found = indexImports().get(name);
  if (!found) throw new Error(`node-llama-cpp's index does not import ${name} from a file`);
  const mod = (await import(pathToFileURL(found.file).href)) as Record<string, unknown>;
  const value = mod[found.original];
  if (value === undefined)
    throw new Error(`node-llama-cpp: ${found.file} has no ${found.original}`);
  return value as Exports[K];
}
