/**
 * A Claude Code marketplace's entry from another repository (`github`, `url`, `git-subdir`
 * sources), installed as a pack of its own when the user picks it (`islet plugins add MARKET
 * --plugin NAME`, or Install beside it in the app): where to clone it from, read from the entry
 * and then checked like any source the user types. The entry is kept in the pack's
 * `.origin.yaml`, since with `strict: false` it says what the plugin holds.
 */
import path from "node:path";
import type { Marketplace, RemoteEntry } from "../code-plugins/loader/claude-marketplace.ts";
import { checkRef, checkSubpath } from "./source.ts";
import { PackError, type RemoteOffer } from "./types.ts";

export interface RemoteSource {
  /** What parseSource is given: a URL or GitHub's owner/repo. */
  source: string;
  /** The entry's `sha` (the commit the marketplace vouches for), else its `ref`. */
  ref?: string;
  subpath?: string;
}

const text = (v: unknown): string | undefined =>
  typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;

/** Where the entry's plugin is cloned from; a PackError naming the entry when it cannot be. */
export function remoteSource(entry: RemoteEntry, file: string): RemoteSource {
  const s = entry.source;
  const fail = (why: string) =>
    new PackError({
      source: "packs",
      file,
      title: `plugin "${entry.name}": ${why}`,
    });
  const kind = text(s.source) ?? "(none)";
  let source: string | undefined;
  if (kind === "github") source = text(s.repo);
  else if (kind === "url" || kind === "git-subdir") source = text(s.url);
  else throw fail(`its source is of kind "${kind}", which Islet cannot install (git only)`);
  if (!source) throw fail(`its ${kind} source names no ${kind === "github" ? "repo" : "url"}`);
  if (/^file:/i.test(source) || source.startsWith("/") || source.startsWith("."))
    throw fail(`its source ${source} is not a repository on a server`);
  const where = `plugin "${entry.name}" in ${file}`;
  const pin = text(s.sha) ?? text(s.ref);
  const ref = pin !== undefined ? checkRef(pin, `${where}: ref`) : undefined;
  const subpath = checkSubpath(text(s.path), `${where}: path`);
  return { source, ...(ref ? { ref } : {}), ...(subpath ? { subpath } : {}) };
}

/** Where a marketplace was read, for what `pickRemote` says about a plugin of its own folders. */
export type MarketplaceFound =
  { installed: string } | { source: string; ref?: string; subpath?: string };

/**
 * The remote entry called `name`; a PackError saying what the marketplace has instead. `found`
 * tells where the marketplace was read: an installed pack (by its name), or the source the user
 * gave (at `ref`, read at `subpath` of it), which a plugin of its own folders installs from alone.
 */
export function pickRemote(
  market: Marketplace | undefined,
  name: string,
  where: string,
  found: MarketplaceFound,
): RemoteEntry {
  if (!market)
    throw new PackError(`${where} has no .claude-plugin/marketplace.json: --plugin picks from one`);
  const remote = market.remote.find((r) => r.name === name);
  if (remote) return remote;
  const local = market.local.find((l) => l.name === name);
  if (local && "installed" in found)
    throw new PackError(
      `"${name}" is one of ${found.installed}'s own plugins and was installed with it (islet plugins show ${name})`,
    );
  if (local && "source" in found) {
    const root = path.dirname(path.dirname(market.file));
    const folder = path.posix.join(
      found.subpath ?? ".",
      path.relative(root, local.dir).split(path.sep).join("/"),
    );
    const add = `islet plugins add ${found.source}${found.ref ? ` --ref ${found.ref}` : ""}`;
    throw new PackError(
      folder === "."
        ? `"${name}" is in ${where}'s own folders: install it with ${add} (without --plugin)`
        : `"${name}" is in ${where}'s own folders: install it alone with ${add} --subpath ${folder}, or all of them without --plugin`,
    );
  }
  const names = market.remote.map((r) => r.name);
  throw new PackError(
    `${where}'s marketplace lists no plugin "${name}"${names.length ? ` from another repository (it lists ${names.join(", ")})` : ""}`,
  );
}

/** A remote entry as a person is shown it: where it would come from, or why it cannot be installed. */
export function remoteOffer(r: RemoteEntry): RemoteOffer {
  let source: string;
  try {
    const s = remoteSource(r, "marketplace.json");
    source = [s.source, s.subpath && `folder ${s.subpath}`, s.ref && `at ${s.ref}`]
      .filter(Boolean)
      .join(", ");
  } catch (err) {
    source = `cannot be installed: ${(err as Error).message.replace(/^.*?plugin "[^"]*": /, "")}`;
  }
  return { name: r.name, description: r.description, source };
}
