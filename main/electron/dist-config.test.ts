// `npm run dist` packs what the app needs and not what Vite already bundled: every production
// dependency that only the renderer imports (React, Monaco, Markdown, highlighting, …) is left
// out of the asar; native and engine packages stay, unpacked where they must run from disk;
// resources (plugin templates, catalog) and the bundled plugins ship beside it.
import { strict as assert } from "node:assert";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { parse } from "yaml";

const root = join(import.meta.dirname, "../..");

interface BuilderConfig {
  protocols?: { name: string; schemes: string[] }[];
  files: string[];
  asarUnpack: string[];
  extraResources: { from: string; to: string }[];
}

const config = parse(readFileSync(join(root, "electron-builder.yml"), "utf8")) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

/** Package names imported by the non-test sources under `dir`. */
function importedPackages(dir: string): Set<string> {
  const found = new Set<string>();
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const path = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules" && entry.name !== "testing") walk(path);
      } else if (/\.(ts|tsx)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const text = readFileSync(path, "utf8");
        for (const m of text.matchAll(/(?:from|import\()\s*["']([^"'./][^"']*)["']/g)) {
          const spec = m[1];
          found.add(
            spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0],
          );
        }
      }
    }
  };
  walk(dir);
  return found;
}

test("dependencies only the renderer imports are not shipped again in the asar", () => {
  const runtime = new Set([
    ...importedPackages(join(root, "main")),
    ...importedPackages(join(root, "plugins")),
    // The desktop app's settings store, loaded by the main process (kept external by the config).
    "electron-store",
  ]);
  const rendererOnly = Object.keys(pkg.dependencies).filter((dep) => !runtime.has(dep));
  assert.ok(rendererOnly.includes("monaco-editor"), "the renderer's packages were found");
  const missing = rendererOnly.filter((dep) => !config.files.includes(`!node_modules/${dep}/**`));
  assert.deepEqual(
    missing,
    [],
    "add them to electron-builder.yml files as !node_modules/<name>/**",
  );
  // And the other way round: nothing the main process or a plugin loads is left out.
  const excluded = config.files.flatMap((f) => /^!node_modules\/(.+)\/\*\*$/.exec(f)?.[1] ?? []);
  assert.ok(excluded.includes("monaco-editor"));
  assert.deepEqual(
    excluded.filter((dep) => runtime.has(dep)),
    [],
  );
});

test("native and engine packages run unpacked; resources and plugins ship beside the asar", () => {
  for (const pattern of [
    "**/node_modules/isolated-vm/**",
    "**/node_modules/esbuild/**",
    "**/*.node",
  ])
    assert.ok(config.asarUnpack.includes(pattern), pattern);
  assert.deepEqual(
    config.extraResources.map((r) => [r.from, r.to]),
    [
      ["resources", "resources"],
      ["plugins", "plugins"],
    ],
  );
  assert.ok(config.files.includes("out/**/*"), "the built app (renderer with its Monaco workers)");
});

test("declares islet:// so macOS and Linux hand install links to the app", () => {
  assert.deepEqual(
    config.protocols?.flatMap((p) => p.schemes),
    ["islet"],
  );
});
