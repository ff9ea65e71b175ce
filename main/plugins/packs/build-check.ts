/**
 * Builds every enabled Islet plugin of a staged pack with the loader's own bundler, so a plugin
 * that would fail to load is rejected before it is installed (and an update that does not build
 * leaves the old version serving). Bundles are not cached: the staging paths go away.
 */
import { bundlePlugin, formatBundleMessage } from "../loader/bundle.ts";
import { PackError } from "./types.ts";
import { relabel, type StagedPack } from "./validate.ts";

export async function buildCheck(pack: StagedPack, label: string): Promise<void> {
  const islet = pack.plugins.filter((p) => p.format === "islet" && p.enabled && p.entry);
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
