/**
 * A Claude Code marketplace's entry picked by name; one from another repository (`github`, `url`,
 * `git-subdir` sources) is installed as a pack of its own when the user picks it (`islet plugins add MARKET
 * --plugin NAME`, or Install beside it in the app): where to clone it from, read from the entry
 * and then checked like any source the user types. The entry is kept in the pack's
 * `.origin.yaml`, since with `strict: false` it says what the plugin holds.
 */
import type {
  LocalEntry,
  Marketplace,
  RemoteEntry,
} from "../code-plugins/loader/claude-marketplace.ts";
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

/**
 * The entry called `name`: one from another repository, or one of the marketplace's own folders
 * (installed alone, as Claude Code's `/plugin install name@market` does); a PackError saying what
 * the marketplace has instead.
 */
export function pickEntry(
  market: Marketplace | undefined,
  name: string,
  where: string,
): { remote: RemoteEntry } | { local: LocalEntry } {
  if (!market)
    throw new PackError(`${where} has no .claude-plugin/marketplace.json: --plugin picks from one`);
  const remote = market.remote.find((r) => r.name === name);
  if (remote) return { remote };
  const local = market.local.find((l) => l.name === name);
  if (local) return { local };
  const names = [...market.local, ...market.remote].map((r) => r.name);
  throw new PackError(
    `${where}'s marketplace lists no plugin "${name}"${names.length ? ` (it lists ${names.join(", ")})` : ""}`,
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
