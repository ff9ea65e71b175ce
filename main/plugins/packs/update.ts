/**
 * `islet plugins update`: the whole pack, whichever of its plugins was named (seed 000). Stops on
 * local edits unless forced; fetches into a staging copy; validates, vendors and builds the new
 * version there; asks (what changed, and only permissions not granted before); then swaps it in.
 * Until the swap the installed version is untouched, so any failure leaves it installed and
 * serving.
 */
import path from "node:path";
import { buildCheck } from "./build-check.ts";
import { installedDir, notGrantedYet, recordGrants, updateQuestion } from "./consent.ts";
import { asPackError, checkAborted, gitContext, report, type PackContext } from "./context.ts";
import {
  checkoutCommit,
  commitsBetween,
  excludeIslands,
  fetchIntoCopy,
  filesBetween,
  headCommit,
  localEdits,
} from "./git.ts";
import { checkClashes, listPacks, readPack, resolvePack } from "./installed.ts";
import { hasOrigin, readOrigin, writeOrigin } from "./origin.ts";
import { looksLikeCommit, parseSource, type GitSource } from "./source.ts";
import { createStaging, swapInto } from "./staging.ts";
import {
  PackError,
  type InstalledPack,
  type PackOperationHooks,
  type PackUpdateOutcome,
} from "./types.ts";
import { checkSymlinks, validateStaged } from "./validate.ts";
import { vendorAll } from "./vendor.ts";

const MAX_LISTED_EDITS = 3;

async function refuseLocalEdits(
  ctx: PackContext,
  pack: InstalledPack,
  commit: string,
): Promise<void> {
  const edits = await localEdits(pack.dir, ctx.env);
  const head = await headCommit(pack.dir, ctx.env).catch(() => "");
  if (head && head !== commit) edits.unshift(`commits since install (now at ${head.slice(0, 12)})`);
  if (edits.length === 0) return;
  const shown = edits
    .slice(0, MAX_LISTED_EDITS)
    .map((e) => e.trim())
    .join(", ");
  const more =
    edits.length > MAX_LISTED_EDITS ? ` and ${edits.length - MAX_LISTED_EDITS} more` : "";
  throw new PackError(
    `${pack.name} was edited since it was installed (${shown}${more}): keep your changes elsewhere, or pass --force to replace them with the update`,
  );
}

export async function updatePack(
  ctx: PackContext,
  nameOrPlugin: string,
  hooks: PackOperationHooks,
): Promise<PackUpdateOutcome> {
  report(hooks, "resolving", `Finding ${nameOrPlugin}`);
  const { pack } = await resolvePack(ctx.homes, nameOrPlugin, ctx.warn);
  return updateResolved(ctx, pack, hooks);
}

export async function updateResolved(
  ctx: PackContext,
  pack: InstalledPack,
  hooks: PackOperationHooks,
): Promise<PackUpdateOutcome> {
  if (!(await hasOrigin(pack.dir)))
    throw new PackError(
      `${pack.name} was not installed from git (no .origin.yaml in ${pack.dir}): it has no update source; remove it and add it again`,
    );
  const origin = await readOrigin(pack.dir);
  const source = (await parseSource(origin.url, { cwd: pack.dir })) as GitSource;
  if (!hooks.force) await refuseLocalEdits(ctx, pack, origin.commit);
  // A pack pinned to a commit never moves.
  if (origin.ref && looksLikeCommit(origin.ref) && origin.commit.startsWith(origin.ref))
    return { pack, from: origin.commit, to: origin.commit, changed: false };

  const pluginsDir = path.dirname(pack.dir);
  const staging = await createStaging(pluginsDir, pack.name);
  try {
    report(hooks, "fetching", `Fetching ${source.url}`);
    const to = await fetchIntoCopy(
      pack.dir,
      staging.pack,
      source,
      origin.ref,
      gitContext(ctx, hooks, "fetching"),
    );
    if (to === origin.commit) {
      report(hooks, "done", `${pack.name} is up to date`);
      return { pack, from: origin.commit, to, changed: false };
    }
    await checkoutCommit(staging.pack, to, ctx.env);
    await excludeIslands(staging.pack);
    checkAborted(hooks, `updating ${pack.name}`);

    report(hooks, "validating", `Checking the plugins of ${pack.name}`);
    const staged = await validateStaged({
      root: staging.pack,
      subpath: origin.subpath,
      label: pack.name,
      where: source.url,
      scope: pack.scope,
      warn: ctx.warn,
    });
    checkClashes(
      await listPacks(ctx.homes, ctx.warn),
      pack.name,
      staged.plugins.map((p) => p.name),
      pack.dir,
    );
    const vendor = hooks.vendor !== false;
    if (vendor) {
      const vendored = await vendorAll(
        staged.plugins.map((p) => ({
          dir: p.dir,
          label: path.posix.join(pack.name, p.rel),
          installedDir: installedDir(pack.dir, p),
        })),
        {
          env: ctx.env,
          signal: hooks.signal,
          progress: (l) => report(hooks, "vendoring", `npm install in ${l}`),
        },
      );
      if (vendored > 0) await checkSymlinks(staging.pack, pack.name);
    }
    checkAborted(hooks, `updating ${pack.name}`);
    report(
      hooks,
      "building",
      `Building ${staged.plugins.length} plugin${staged.plugins.length === 1 ? "" : "s"}`,
    );
    await buildCheck(staged, pack.name);

    report(hooks, "consent", `Asking to update ${pack.name}`);
    const [commits, files, fresh] = await Promise.all([
      commitsBetween(staging.pack, origin.commit, to, origin.subpath, ctx.env),
      filesBetween(staging.pack, origin.commit, to, origin.subpath, ctx.env),
      notGrantedYet(ctx.grants, pack.dir, staged.plugins),
    ]);
    const names = new Set(staged.plugins.map((p) => p.name));
    const question = updateQuestion({
      pack: pack.name,
      source: source.url,
      from: origin.commit,
      to,
      commits,
      files,
      plugins: staged.plugins,
      fresh,
      removed: pack.plugins.filter((n) => !names.has(n)),
    });
    if (!(await hooks.consent(question)))
      throw new PackError(
        `${pack.name} was not updated: the update was not accepted (the installed version stays)`,
      );
    checkAborted(hooks, `updating ${pack.name}`);

    await writeOrigin(staging.pack, {
      ...origin,
      commit: to,
      updatedAt: new Date().toISOString(),
      vendored: vendor,
    });
    report(hooks, "installing", `Replacing ${pack.name}`);
    await swapInto(staging.pack, pack.dir, pluginsDir);
    await recordGrants(ctx.grants, pack.dir, staged.plugins).catch((err: unknown) =>
      ctx.warn(
        `${pack.name}: could not record the permissions you accepted (${(err as Error).message}); they will be asked for at load`,
      ),
    );
    report(hooks, "done", `Updated ${pack.name}`);
    const updated = (await readPack(pack.dir, pack.scope, ctx.warn)) ?? pack;
    return { pack: updated, from: origin.commit, to, changed: true };
  } catch (err) {
    throw asPackError(err, `updating ${pack.name}`);
  } finally {
    await staging.dispose();
  }
}
