/**
 * Builds every enabled Islet plugin of a staged pack with the loader's own bundler, so a plugin
 * that would fail to load is rejected before it is installed (and an update that does not build
 * leaves the old version serving). Bundles are not cached: the staging paths go away.
 */
import { bundlePlugin, formatBundleMessage } from "../code-plugins/loader/bundle.ts";
import { PackError } from "./types.ts";
import { relabel, type StagedPack } from "./validate.ts";

/** Builds the enabled Islet plugins of `pack` (only those named in `only`, when given). */
export async function buildCheck(
  pack: StagedPack,
  label: string,
  only?: ReadonlySet<string>,
): Promise<void> {
  const islet = pack.plugins.filter(
    (p) => p.format === "islet" && p.enabled && p.entry && (!only || only.has(p.name)),
  );
  const results = await Promise.all(
    islet.map(async (p) => ({
      p,
      result: await bundlePlugin({ entry: p.entry!, pluginDir: p.dir }),
    })),
  );
  for (const { p, result } of results) {
    if (result.ok) continue;
    const first = result.errors[0] ? formatBundleMessage(result.errors[0]) : result.message;
    throw new PackError(
      `plugin "${p.name}" does not build: ${relabel(first, pack.root, label)}${result.errors.length > 1 ? ` (and ${result.errors.length - 1} more errors)` : ""}`,
    );
  }
}

/** Files esbuild could read while bundling (modules, data it imports, package and TS config). */
const BUILD_INPUT = /(\.(m?[jt]sx?|c[jt]s|json|txt|css)|(^|\/)(package\.json|tsconfig\.json))$/;

/**
 * The plugins an update must build: those with a changed file in their folder, or every plugin
 * when a file they might import changed outside all of them (a shared module) or the way their
 * dependencies are vendored changed. The others are the same files that built before.
 */
export function pluginsToBuild(
  pack: StagedPack,
  changed: readonly string[],
  vendoringChanged: boolean,
): Set<string> | undefined {
  if (vendoringChanged) return undefined;
  const out = new Set<string>();
  for (const file of changed) {
    const owner = pack.plugins.find((p) => p.rel === "" || file.startsWith(`${p.rel}/`));
    if (owner) out.add(owner.name);
    else if (BUILD_INPUT.test(file)) return undefined;
  }
  return out;
}
