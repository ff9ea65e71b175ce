/**
 * `islet plugins add`: clone (or copy) into staging, validate, vendor, build, ask, then rename
 * into place and record what the user granted. Any failure removes the staging folder and
 * leaves the plugins dir as it was. `--plugin NAME` installs what a Claude Code marketplace lists
 * from another repository, as a pack of its own.
 */
import { cp, realpath } from "node:fs/promises";
import path from "node:path";
import { isInside } from "../code-plugins/loader/origin-scope.ts";
import { buildCheck } from "./build-check.ts";
import {
  grantsNotRecorded,
  installQuestion,
  recordConsentedTrust,
  recordGrants,
} from "./consent.ts";
import { asPackError, checkAborted, gitContext, report, type PackContext } from "./context.ts";
import { cloneSource } from "./git.ts";
import { excludeIslands } from "./git-local.ts";
import { checkClashes, listPacks, packsDirs } from "./installed.ts";
import { ORIGIN_FILE, writeOrigin } from "./origin.ts";
import {
  checkPackName,
  checkRef,
  checkSubpath,
  parseSource,
  sourceLabel,
  type LocalSource,
} from "./source.ts";
import { checkLinkValues } from "./link.ts";
import { createStaging, exists, moveIntoPlace } from "./staging.ts";
import { markCheckedOut } from "./untouched.ts";
import {
  PackError,
  type AddedPack,
  type InstalledPack,
  type PackAddInput,
  type PackOperationHooks,
} from "./types.ts";
import { checkSymlinks, validateStaged } from "./validate.ts";
import { vendorAll } from "./vendor.ts";
import { trustBeforeConsent } from "../trust/install-trust.ts";
import { pickEntry, remoteSource } from "./remote-entry.ts";
import {
  readMarketplace,
  type JsonObject,
  type Marketplace,
} from "../code-plugins/loader/claude-marketplace.ts";
import { originScope } from "../code-plugins/loader/origin-scope.ts";

/** A local folder's content (or its subpath's), without its .git, into `dest`. */
async function copyLocal(
  source: LocalSource,
  subpath: string | undefined,
  dest: string,
  pluginsDir: string,
): Promise<void> {
  const from = subpath ? path.join(source.path, ...subpath.split("/")) : source.path;
  let real: string;
  try {
    real = await realpath(from);
  } catch {
    throw new PackError(`--subpath ${subpath} does not exist in ${source.path}`);
  }
  if (!isInside(await realpath(source.path), real))
    throw new PackError(`--subpath ${subpath} leads outside ${source.path} through a symlink`);
  const plugins = await realpath(pluginsDir).catch(() => path.resolve(pluginsDir));
  if (isInside(real, plugins))
    throw new PackError(
      `${from} holds the plugins folder itself (${pluginsDir}): give the plugin's own folder`,
    );
  await cp(real, dest, {
    recursive: true,
    verbatimSymlinks: true,
    filter: (src) => !(path.basename(src) === ".git" && path.dirname(src) === real),
  });
}

/**
 * A link can name any server, which could answer 401 to collect credentials: GIT_TOKEN (the
 * user's token for any host) is not offered to it. Host-scoped tokens and the user's own
 * credential helpers (which git scopes by host) still apply.
 */
function linkContext(ctx: PackContext): PackContext {
  return {
    ...ctx,
    env: Object.fromEntries(Object.entries(ctx.env).filter(([k]) => k !== "GIT_TOKEN")),
  };
}

/** A marketplace's entry being installed: who listed it, and the entry as written. */
interface Listing {
  listedBy: string;
  entry: JsonObject;
  /** One of the marketplace's own folders, cloned from the source the user gave. */
  own?: true;
}

/**
 * `--plugin NAME`: the entry of the marketplace at `input.source` (an installed pack's name, or
 * any source, fetched into a throwaway folder) installed as a pack of its own. One of the
 * marketplace's own folders is the marketplace's repository with that folder as the pack's
 * subpath: only it loads, as Claude Code installs only the plugin named.
 */
async function addListed(
  ctx: PackContext,
  input: PackAddInput & { plugin: string },
  hooks: PackOperationHooks,
): Promise<InstalledPack> {
  report(hooks, "resolving", `Finding ${input.plugin} in ${input.source}`);
  if (input.via === "link") checkLinkValues(input);
  const name = checkPackName(input.name ?? input.plugin, input.name ? "--name" : "--plugin");
  const installed = (await listPacks(ctx.homes, ctx.warn)).find((p) => p.name === input.source);
  let market: Marketplace | undefined;
  let listedBy: string;
  // Where the marketplace's repository holds each of its own plugins.
  let folderOf = (_dir: string): string | undefined => undefined;
  if (installed && input.ref === undefined && input.subpath === undefined) {
    const scope = await originScope(installed.dir);
    market = await readMarketplace("folder" in scope ? scope.folder : installed.dir);
    listedBy = installed.origin?.url ?? installed.dir;
  } else {
    const source = await parseSource(input.source, {
      cwd: ctx.homes.workdir,
      home: ctx.env.HOME,
      remoteOnly: input.via === "link",
    });
    const ref = input.ref !== undefined ? checkRef(input.ref) : undefined;
    const subpath = checkSubpath(input.subpath);
    const pluginsDir = (await packsDirs(ctx.homes))[input.scope];
    const staging = await createStaging(pluginsDir, `${name}-marketplace`);
    listedBy = sourceLabel(source);
    try {
      if (source.kind === "git") {
        report(hooks, "cloning", `Cloning ${listedBy}`);
        const git = gitContext(input.via === "link" ? linkContext(ctx) : ctx, hooks, "cloning");
        await cloneSource(source, staging.pack, ref, git);
      } else await copyLocal(source, undefined, staging.pack, pluginsDir);
      market = await readMarketplace(
        subpath ? path.join(staging.pack, ...subpath.split("/")) : staging.pack,
      );
      const root = staging.pack;
      folderOf = (dir) => path.relative(root, dir).split(path.sep).join("/") || undefined;
    } catch (err) {
      throw asPackError(err, `reading the marketplace ${listedBy}`);
    } finally {
      await staging.dispose();
    }
  }
  const picked = pickEntry(market, input.plugin, listedBy);
  if ("local" in picked) {
    if (installed && input.ref === undefined && input.subpath === undefined)
      throw new PackError(
        `"${input.plugin}" is one of ${input.source}'s own plugins and came with it: it is installed already`,
      );
    const folder = folderOf(picked.local.dir);
    return addPack(
      ctx,
      {
        source: input.source,
        ...(input.ref !== undefined ? { ref: input.ref } : {}),
        ...(folder ? { subpath: folder } : {}),
        name,
        scope: input.scope,
        ...(input.vendor !== undefined ? { vendor: input.vendor } : {}),
        ...(input.via ? { via: input.via } : {}),
      },
      hooks,
      { listedBy, entry: picked.local.entry, own: true },
    );
  }
  const entry = picked.remote;
  const remote = remoteSource(entry, `${listedBy} .claude-plugin/marketplace.json`);
  return addPack(
    ctx,
    {
      source: remote.source,
      ...(remote.ref ? { ref: remote.ref } : {}),
      ...(remote.subpath ? { subpath: remote.subpath } : {}),
      name,
      scope: input.scope,
      ...(input.vendor !== undefined ? { vendor: input.vendor } : {}),
      ...(input.via ? { via: input.via } : {}),
    },
    hooks,
    { listedBy, entry: entry.entry },
  );
}

export async function addPack(
  ctx: PackContext,
  input: PackAddInput,
  hooks: PackOperationHooks,
  listing?: Listing,
): Promise<AddedPack> {
  if (input.plugin !== undefined) return addListed(ctx, { ...input, plugin: input.plugin }, hooks);
  report(hooks, "resolving", `Resolving ${input.source}`);
  // A link's values were checked where it arrived; checked again here, where they are used.
  if (input.via === "link") checkLinkValues(input);
  // A marketplace names any server: the same care as a link (never a folder on this computer).
  const remoteOnly = input.via === "link" || (listing !== undefined && !listing.own);
  const source = await parseSource(input.source, {
    cwd: ctx.homes.workdir,
    home: ctx.env.HOME,
    remoteOnly,
  });
  const ref = input.ref !== undefined ? checkRef(input.ref) : undefined;
  if (ref && source.kind === "local")
    throw new PackError("--ref applies to git sources; a folder is copied as it is");
  const subpath = checkSubpath(input.subpath);
  const name = checkPackName(
    input.name ?? source.defaultName,
    input.name ? "--name" : "the name taken from the source",
  );
  const label = sourceLabel(source);
  const pluginsDir = (await packsDirs(ctx.homes))[input.scope];
  const target = path.join(pluginsDir, name);
  if (await exists(target))
    throw new PackError(
      `${target} already exists: pick another --name, or \`islet plugins remove ${name}\` first`,
    );
  const before = await listPacks(ctx.homes, ctx.warn);
  checkClashes(before, name, [], { overlap: false });

  const staging = await createStaging(pluginsDir, name);
  try {
    let commit: string | undefined;
    if (source.kind === "git") {
      report(hooks, "cloning", `Cloning ${label}`);
      ({ commit } = await cloneSource(
        source,
        staging.pack,
        ref,
        gitContext(remoteOnly ? linkContext(ctx) : ctx, hooks, "cloning"),
      ));
      if (await exists(path.join(staging.pack, ORIGIN_FILE)))
        throw new PackError(
          `${label} has its own ${ORIGIN_FILE} at the root, the file Islet keeps a pack's origin in: it cannot be installed as a pack`,
        );
      await excludeIslands(staging.pack);
      markCheckedOut(staging.pack);
    } else {
      report(hooks, "cloning", `Copying ${label}`);
      await copyLocal(source, subpath, staging.pack, pluginsDir);
    }
    checkAborted(hooks, `installing ${name}`);

    report(hooks, "validating", `Checking the plugins of ${name}`);
    const staged = await validateStaged({
      root: staging.pack,
      subpath: source.kind === "git" ? subpath : undefined,
      label: name,
      where: label,
      scope: input.scope,
      warn: ctx.warn,
      ...(listing
        ? {
            claudeEntry: {
              file: `${listing.listedBy} .claude-plugin/marketplace.json`,
              entry: listing.entry,
            },
          }
        : {}),
    });
    const sameNamed = checkClashes(before, name, staged.plugins, { overlap: !listing });

    if (input.vendor !== false) {
      const vendored = await vendorAll(
        staged.plugins.map((p) => ({ dir: p.dir, label: path.posix.join(name, p.rel) })),
        {
          env: ctx.env,
          signal: hooks.signal,
          progress: (l) => report(hooks, "vendoring", `npm install in ${l}`),
          warn: ctx.warn,
        },
      );
      if (vendored > 0) await checkSymlinks(staging.pack, name);
    }
    checkAborted(hooks, `installing ${name}`);
    report(
      hooks,
      "building",
      `Building ${staged.plugins.length} plugin${staged.plugins.length === 1 ? "" : "s"}`,
    );
    await buildCheck(staged, name);

    report(hooks, "consent", `Asking to install ${name}`);
    const question = installQuestion({
      pack: name,
      source: label,
      ref,
      subpath,
      commit,
      scope: input.scope,
      plugins: staged.plugins,
      remote: staged.remote,
      via: input.via,
      sameNamed,
      ...(listing ? { listedBy: listing.listedBy } : {}),
    });
    // What the folder's trust was while the person read the question (what it covers).
    const trust =
      input.scope === "project" ? await trustBeforeConsent(ctx.homes, ctx.warn) : undefined;
    if (!(await hooks.consent(question)))
      throw new PackError(`${name} was not installed: the install was not accepted`);
    checkAborted(hooks, `installing ${name}`);

    const origin =
      source.kind === "git" && commit
        ? {
            url: source.url,
            ...(ref ? { ref } : {}),
            ...(subpath ? { subpath } : {}),
            commit,
            installedAt: new Date().toISOString(),
            vendored: input.vendor !== false,
            ...(listing ? { listedBy: listing.listedBy, claudeEntry: listing.entry } : {}),
          }
        : undefined;
    if (origin) await writeOrigin(staging.pack, origin);
    report(hooks, "installing", `Installing ${name} into ${pluginsDir}`);
    await moveIntoPlace(staging.pack, target);
    // Installed: failing to record the grants only means the plugins ask again when they load.
    await recordGrants(ctx.grants, target, staged.plugins).catch((err: unknown) =>
      ctx.warn(grantsNotRecorded(name, err)),
    );
    // The consent covered the pack's parts: not asked about again at the next start.
    if (trust) await recordConsentedTrust(ctx, hooks, name, trust);
    report(hooks, "done", `Installed ${name}`);
    return {
      name,
      dir: target,
      scope: input.scope,
      ...(origin ? { origin } : {}),
      plugins: staged.plugins.map((p) => p.name),
      ...(sameNamed.length > 0 ? { sameNamed } : {}),
    };
  } catch (err) {
    throw asPackError(err, `installing ${name}`);
  } finally {
    await staging.dispose();
  }
}
