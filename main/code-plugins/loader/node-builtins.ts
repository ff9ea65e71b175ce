/**
 * Plugins run in an isolate without Node. With platform "neutral" esbuild cannot resolve a Node
 * built-in and says so at the import's line; we replace its advice (use platform "node") with
 * what a plugin author can actually do. An npm package that shadows a built-in name (events,
 * buffer, punycode…) resolves normally when installed, so it never reaches this message.
 */
import { builtinModules } from "node:module";

const BARE_BUILTINS = new Set(
  builtinModules.filter((m) => !m.startsWith("node:")).map((m) => m.split("/")[0]),
);

/** True for "node:x" and for bare built-in names such as "fs" or "fs/promises". */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith("node:") || BARE_BUILTINS.has(specifier.split("/")[0]);
}

export function builtinAdvice(specifier: string): string {
  const name = specifier.replace(/^node:/, "");
  return `plugins cannot import Node modules (${name}): use fs from @islet/sdk, or exec from @islet/sdk/exec in unsafe mode`;
}

/** esbuild's "Could not resolve" text, made actionable for plugin authors. */
export function explainUnresolved(text: string, pluginDir: string): string {
  const m = /^Could not resolve "(.+)"$/.exec(text);
  if (!m) return text;
  const spec = m[1];
  if (isNodeBuiltin(spec)) return builtinAdvice(spec);
  if (/^[^./]/.test(spec)) {
    return `${text} (is it a dependency in the plugin's package.json? run npm install in ${pluginDir})`;
  }
  return text;
}
