/**
 * `islet plugins search [TERM] [--tag T] [--json] [--refresh]`: the packs of every catalog (the
 * default one and those added in settings) matching TERM by name, description and tags, and
 * whether each is installed. Catalog problems go to stderr, one line each; the packs still list.
 */
import { JsonAppSettingsStore } from "../config/app-settings.ts";
import { resolveHomes } from "../config/homes.ts";
import { searchCatalog, searchEntries } from "../host/catalog-search.ts";
import { installedFromCatalog } from "../packs/catalog/installed.ts";
import { loadCatalogs, statusLines, type CatalogPack } from "../packs/catalog/load.ts";
import { defaultCatalogFile } from "../packs/catalog/sources.ts";
import { packManager, type InstalledPack } from "../packs/index.ts";
import type { RemoteOffer } from "../packs/types.ts";
import { COMMON_OPTIONS, parseFlags } from "./options.ts";
import { type Output, warningLines } from "./render.ts";

export interface SearchDeps {
  /** The installed packs of both scopes (the pack manager's list). */
  installed(homes: ReturnType<typeof resolveHomes>): Promise<InstalledPack[]>;
}

function packText(p: CatalogPack, installed: InstalledPack | undefined): string {
  const where = installed
    ? `  installed${installed.name !== p.name ? ` as ${installed.name}` : ""} (${installed.scope})`
    : "";
  const facts = [
    p.url + (p.ref ? `#${p.ref}` : "") + (p.subpath ? ` (${p.subpath})` : ""),
    p.tags.length ? p.tags.join(", ") : null,
    p.author ?? null,
  ].filter((s): s is string => s !== null);
  return [
    `${p.name}${where}`,
    ...(p.description ? [`  ${p.description}`] : []),
    `  ${facts.join(" · ")}`,
  ]
    .join("\n")
    .concat("\n");
}

const DEFAULT_DEPS: SearchDeps = { installed: (homes) => packManager({ homes }).list() };

interface Listed {
  entry: RemoteOffer;
  /** The installed marketplace that lists it. */
  by: InstalledPack;
  /** Installed already, as a pack of its own. */
  installed: boolean;
}

/**
 * What installed marketplaces list from other repositories and match TERM (never for a blank
 * one: a marketplace may list hundreds), by the catalog's rules. Entries have no tags.
 */
function listedByInstalled(installed: InstalledPack[], term: string): Listed[] {
  if (term.trim() === "") return [];
  const names = new Set(installed.map((p) => p.name));
  return installed.flatMap((by) =>
    searchEntries(by.remote ?? [], term).map((entry) => ({
      entry,
      by,
      installed: names.has(entry.name),
    })),
  );
}

function listedText({ entry, by, installed }: Listed): string {
  const blocked = entry.source.startsWith("cannot be installed");
  return [
    `${entry.name}  (listed by ${by.name})${installed ? "  installed" : ""}`,
    ...(entry.description ? [`  ${entry.description}`] : []),
    `  ${entry.source}`,
    ...(blocked || installed
      ? []
      : [
          `  islet plugins add ${by.name} --plugin ${entry.name}${by.scope === "global" ? " --global" : ""}`,
        ]),
  ]
    .join("\n")
    .concat("\n");
}

export async function searchCommand(
  argv: string[],
  io: Output,
  deps: SearchDeps = DEFAULT_DEPS,
): Promise<number> {
  const { values, positionals } = parseFlags(argv, {
    ...COMMON_OPTIONS,
    json: { type: "boolean" },
    tag: { type: "string" },
    refresh: { type: "boolean" },
  });
  // argv is the whole `plugins` command line: positionals[0] is "search".
  const term = positionals.slice(1).join(" ");
  const homes = resolveHomes({ home: values.home, workdir: values.workdir });
  const warn = warningLines(io);
  const { catalogs } = await new JsonAppSettingsStore(homes.global, warn).read();
  const [set, installed] = await Promise.all([
    loadCatalogs({
      globalHome: homes.global,
      sources: catalogs,
      defaultFile: defaultCatalogFile(),
      refresh: values.refresh,
    }),
    deps.installed(homes),
  ]);
  for (const c of set.catalogs) {
    if (c.error) io.err(`${c.state === "cached" ? "note" : "warning"}: ${c.error}\n`);
    for (const p of c.problems) warn(p);
  }
  const found = searchCatalog(set.packs, term, values.tag);
  const matches = installedFromCatalog(found, installed);
  const listed = values.tag ? [] : listedByInstalled(installed, term);
  if (values.json) {
    const packs = found.map((p) => ({ ...p, installed: matches.get(p)?.[0] ?? null }));
    const statuses = set.catalogs.map(statusLines);
    const fromMarketplaces = listed.map(({ entry, by, installed }) => ({
      ...entry,
      listedBy: by.name,
      scope: by.scope,
      installed,
    }));
    io.out(`${JSON.stringify({ packs, listed: fromMarketplaces, catalogs: statuses }, null, 2)}\n`);
    return 0;
  }
  if (found.length === 0) {
    const what = [term && `"${term}"`, values.tag && `tag ${values.tag}`]
      .filter(Boolean)
      .join(" and ");
    io.out(`No pack in the catalogs matches ${what || "anything"}.\n`);
  } else {
    io.out(found.map((p) => packText(p, matches.get(p)?.[0])).join("\n"));
    io.out(
      `\n${found.length} pack${found.length === 1 ? "" : "s"}; install one with: islet plugins add URL\n`,
    );
  }
  if (listed.length > 0) {
    io.out(
      `\nListed by marketplaces you installed, each installed as a pack of its own:\n\n${listed.map(listedText).join("\n")}`,
    );
  }
  return 0;
}
