/**
 * `islet plugins remove`: a whole pack, named by itself or by its only plugin. A plugin that
 * shares its pack with others cannot be removed alone (seed 000): the message says how to remove
 * the pack or turn that plugin off.
 */
import path from "node:path";
import type { PackContext } from "./context.ts";
import { findPack } from "./installed.ts";
import { removeInstalled } from "./staging.ts";
import { PackError, type InstalledPack } from "./types.ts";

export async function removePack(ctx: PackContext, nameOrPlugin: string): Promise<InstalledPack> {
  const { pack, viaPlugin } = await findPack(ctx.homes, nameOrPlugin, ctx.warn);
  if (viaPlugin && pack.plugins.length > 1)
    throw new PackError(
      `"${nameOrPlugin}" is one of the ${pack.plugins.length} plugins of pack ${pack.name} (${pack.plugins.join(", ")}): remove the whole pack with \`islet plugins remove ${pack.name}\`, or set disabled: true in its plugin.yaml to turn only it off`,
    );
  await removeInstalled(pack.dir, path.dirname(pack.dir));
  return pack;
}
