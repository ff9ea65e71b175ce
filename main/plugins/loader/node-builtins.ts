/**
 * Plugins run in an isolate without Node: an import of a Node built-in fails the build with what
 * to use instead, at the import's line, rather than esbuild's bare "Could not resolve".
 */
import type { Plugin } from "esbuild";
import { builtinModules } from "node:module";

const BARE_BUILTINS = new Set(
  builtinModules.filter((m) => !m.startsWith("node:")).map((m) => m.split("/")[0]),
);

export function builtinAdvice(specifier: string): string {
  const name = specifier.replace(/^node:/, "");
  return `plugins cannot import Node modules (${name}): use fs from @islet/sdk, or exec from @islet/sdk/exec in unsafe mode`;
}

/** True for "node:x" and for bare built-in names such as "fs" or "fs/promises". */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || BARE_BUILTINS.has(specifier.split("/")[0]);
}

/** Marks our own nested resolve, so the guard does not intercept it again. */
const RETRY = { guard: "islet-node-builtins" };

export function nodeBuiltinGuard(): Plugin {
  // esbuild filters are Go regexps: keep it a plain alternation.
  const names = [...BARE_BUILTINS].map((n) => n.replace(/[.+?^${}()|[\]\\]/g, "\\$&"));
  const filter = new RegExp(`^(node:.*|(${names.join("|")})(/.*)?)$`);
  return {
    name: "islet-node-builtins",
    setup(build) {
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData === RETRY) return undefined;
        if (!args.path.startsWith("node:")) {
          // npm packages named like built-ins (events, buffer, punycode…) are fine when installed.
          const found = await build.resolve(args.path, {
            kind: args.kind,
            importer: args.importer,
            resolveDir: args.resolveDir,
            pluginData: RETRY,
          });
          if (found.errors.length === 0 && found.path !== "") {
            const { path, namespace, external, sideEffects } = found;
            return { path, namespace, external, sideEffects };
          }
        }
        return { errors: [{ text: builtinAdvice(args.path) }] };
      });
    },
  };
}
