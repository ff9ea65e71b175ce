/**
 * `islet plugins remove`: a whole pack, named by itself or by its only plugin. A plugin that
 * shares its pack with others cannot be removed alone (seed 000): the message says how to remove
 * the pack or turn that plugin off. The grants of every folder in the pack are forgotten: grants
 * are keyed by folder, so a plugin put there later (a pack reusing the name) would inherit them.
 */
import path from "node:path";
import { grantKey } from "../code-plugins/consent/grants.ts";
import type { PackContext } from "./context.ts";
import { findPack } from "./installed.ts";
import { removeInstalled } from "./staging.ts";
import { PackError, type InstalledPack } from "./types.ts";

export async function removePack(ctx: PackContext, nameOrPlugin: string): Promise<InstalledPack> {
  const found = await findPack(ctx.homes, nameOrPlugin, ctx.warn);
  const pack: InstalledPack = { ...found.pack, plugins: await found.pack.plugins };
  if (found.viaPlugin && pack.plugins.length > 1)
    throw new PackError(
      `"${nameOrPlugin}" is one of the ${pack.plugins.length} plugins of pack ${pack.name} (${pack.plugins.join(", ")}): remove the whole pack with \`islet plugins remove ${pack.name}\`, or set disabled: true in its plugin.yaml to turn only it off`,
    );
  const key = await grantKey(pack.dir); // before it is gone: the key is the real path
  await removeInstalled(pack.dir, path.dirname(pack.dir));
  await ctx.grants.forgetUnder(key).catch((err: unknown) =>
    ctx.warn({
      source: pack.name,
      title: `${pack.name} was removed, but its permission grants could not be forgotten (${(err as Error).message}): \`islet plugins permissions NAME --reset\` forgets them`,
    }),
  );
  return pack;
}
