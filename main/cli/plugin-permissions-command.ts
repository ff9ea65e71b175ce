/**
 * `islet plugins permissions NAME [--reset] [--json]`: what a plugin asks for in plugin.yaml and
 * what the user answered (granted, denied, not asked yet); `--reset` forgets the answers so the
 * next run asks again.
 */
import { visibleText } from "../core/visible-text.ts";
import { describePermission } from "../host/permission-text.ts";
import { resolveHomes } from "../config/homes.ts";
import { GrantStore, grantKey } from "../code-plugins/consent/grants.ts";
import { itemKey, requestedItems } from "../code-plugins/consent/requests.ts";
import { loadPlugins } from "../code-plugins/loader/index.ts";
import { COMMON_OPTIONS, parseFlags } from "./options.ts";
import { type Output, warningLines } from "./render.ts";
import { UsageError } from "./usage.ts";

export async function permissionsCommand(argv: string[], io: Output): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    json: { type: "boolean" },
    reset: { type: "boolean" },
  });
  const name = positionals[1];
  if (!name) throw new UsageError("plugins permissions: a plugin name is required");
  const homes = resolveHomes({ home: values.home, workdir: values.workdir });
  const store = new GrantStore(homes.global, warningLines(io));
  if (values.reset) {
    const n = await store.revoke(name);
    io.out(
      n
        ? `Forgot your answers for ${name}; it is asked again on the next run.\n`
        : `No answers recorded for ${name}.\n`,
    );
    return 0;
  }
  const plugin = (await loadPlugins(homes)).plugins.find((p) => p.name === name);
  if (!plugin) throw new UsageError(`no plugin named "${name}"; \`islet plugins list\` shows them`);
  const recorded = (await store.all())[await grantKey(plugin.dir)];
  const status = (key: string) =>
    recorded?.granted.includes(key)
      ? "granted"
      : recorded?.denied.includes(key)
        ? "denied"
        : "not asked yet";
  const items = requestedItems(plugin.manifest).map((item) => ({
    ...item,
    status: status(itemKey(item)),
  }));
  if (values.json) {
    io.out(`${JSON.stringify({ plugin: name, dir: plugin.dir, items }, null, 2)}\n`);
    return 0;
  }
  if (items.length === 0) {
    io.out(
      `${name} asks for nothing beyond the defaults (read the workspace, write its data folder).\n`,
    );
    return 0;
  }
  io.out(`${name} (${plugin.dir}) asks for:\n`);
  for (const item of items)
    io.out(`  ${item.status.padEnd(13)}  ${visibleText(describePermission(item))}\n`);
  return 0;
}
