/**
 * Keeps a bundle inside its plugin: esbuild would otherwise bundle any file a plugin names
 * (`../../grants.json`, an absolute path, a symlink pointing out, a `.env` with a text loader),
 * copying host files into code the sandboxed plugin can read and send anywhere. Every file the
 * build resolves or loads must be inside the plugin's real folder (its node_modules included);
 * the SDK stays external and Node built-ins never resolve on the neutral platform.
 */
import type * as esbuild from "esbuild";
import { realpathSync } from "node:fs";
import path from "node:path";

/** Part of the bundle cache key: bundles built before the guard must not be served again. */
export const BUNDLE_GUARD_VERSION = 1;

const GUARDED = Symbol("islet-bundle-guard");

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

function isInside(root: string, file: string): boolean {
  const rel = path.relative(root, file);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

const ADVICE =
  "a plugin may only bundle files inside its own folder: copy the file into the plugin folder, or read it at run time with fs from @islet/sdk";

export function bundleGuard(pluginDir: string, external: readonly string[]): esbuild.Plugin {
  const root = realOrSelf(pluginDir);
  const outside = (file: string): string | null => {
    const real = realOrSelf(file);
    return isInside(root, real) ? null : real;
  };
  return {
    name: "islet-plugin-folder-guard",
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        const data: unknown = args.pluginData;
        if (data === GUARDED || external.includes(args.path)) return undefined;
        const r = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          namespace: args.namespace,
          resolveDir: args.resolveDir,
          pluginData: GUARDED,
          with: args.with,
        });
        // Unresolvable: esbuild reports it itself, with its usual message.
        if (r.errors.length > 0 || r.external || r.namespace !== "file" || !r.path)
          return undefined;
        const real = outside(r.path);
        if (real === null) return undefined;
        return {
          errors: [
            {
              text: `import "${args.path}" resolves to ${real}, outside the plugin folder ${root}: ${ADVICE}`,
            },
          ],
        };
      });
      // Backstop for any path that reached loading without passing onResolve above.
      build.onLoad({ filter: /.*/, namespace: "file" }, (args) => {
        const real = outside(args.path);
        if (real === null) return undefined;
        return {
          errors: [{ text: `${real} is outside the plugin folder ${root}: ${ADVICE}` }],
        };
      });
    },
  };
}
