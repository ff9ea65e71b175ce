/**
 * `islet plugins update`: the whole pack, whichever of its plugins was named (seed 000). Stops on
 * local edits unless forced; fetches into a staging copy; validates, vendors and builds the new
 * version there; asks (what changed, and only permissions not granted before); then swaps it in.
 * Until the swap the installed version is untouched, so any failure leaves it installed and
 * serving.
 */
import path from "node:path";
import { buildCheck, pluginsToBuild } from "./build-check.ts";
import {
  forgetDropped,
  installedDir,
  notGrantedYet,
  recordGrants,
  updateQuestion,
} from "./consent.ts";
import { asPackError, checkAborted, gitContext, report, type PackContext } from "./context.ts";
import { fetchUpdate } from "./git.ts";
import { changesBetween } from "./git-history.ts";
import {
  checkoutCommit,
  copyInstalled,
  currentBranch,
  excludeIslands,
  headCommit,
  localState,
} from "./git-local.ts";
import { checkClashes, findPack } from "./installed.ts";
import { hasOrigin, readOrigin, writeOrigin } from "./origin.ts";
import { looksLikeCommit, parseSource, type GitSource } from "./source.ts";
import { createStaging, swapInto } from "./staging.ts";
import { markCheckedOut, surelyUntouched } from "./untouched.ts";
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
  // Untouched since its checkout (the usual case): known without starting git.
  if (surelyUntouched(pack.dir) && (await headCommit(pack.dir, ctx.env)) === commit) return;
  const { head, edits } = await localState(pack.dir, ctx.env);
  if (head && head !== commit) edits.unshift(`commits since install (now at ${head.slice(0, 12)})`);
  if (edits.length === 0) return;
  const shown = edits.slice(0, MAX_LISTED_EDITS).join(", ");
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
  const { pack, packs } = await findPack(ctx.homes, nameOrPlugin, ctx.warn);
  return updateResolved(ctx, pack, packs, hooks);
}

const inSubpath = (file: string, subpath: string | undefined) =>
  !subpath || file === subpath || file.startsWith(`${subpath}/`);

/** Updates `pack`; `packs()` lists everything installed (read only if the update adds plugins). */
export async function updateResolved(
  ctx: PackContext,
  pack: InstalledPack,
  packs: () => Promise<InstalledPack[]>,
  hooks: PackOperationHooks,
): Promise<PackUpdateOutcome> {
  if (!(await hasOrigin(pack.dir)))
    throw new PackError(
      `${pack.name} was not installed from git (no .origin.yaml in ${pack.dir}): it has no update source; remove it and add it again`,
    );
  // Read already when the pack was found (unless it did not parse: then this says why).
  const origin = pack.origin ?? (await readOrigin(pack.dir));
  const source = (await parseSource(origin.url, { cwd: pack.dir })) as GitSource;
  // A pack pinned to a commit never moves.
  if (origin.ref && looksLikeCommit(origin.ref) && origin.commit.startsWith(origin.ref))
    return { pack, from: origin.commit, to: origin.commit, changed: false };

  const pluginsDir = path.dirname(pack.dir);
  const staging = await createStaging(pluginsDir, pack.name);
  try {
    // The edit check runs beside the copy and the fetch (it only reads the installed copy): an
    // edited pack is refused all the same, and an unedited one does not wait for it.
    await copyInstalled(pack.dir, staging.pack);
    report(hooks, "fetching", `Fetching ${source.url}`);
    const git = gitContext(ctx, hooks, "fetching");
    // Both are waited for (git must be done with the staging folder before it is removed); the
    // edits are reported first.
    const [edits, fetched] = await Promise.allSettled([
      hooks.force ? undefined : refuseLocalEdits(ctx, pack, origin.commit),
      fetchUpdate(staging.pack, source, origin.ref, origin.commit, git),
    ]);
    if (edits.status === "rejected") throw edits.reason;
    if (fetched.status === "rejected") throw fetched.reason;
    const to = fetched.value;
    if (to === origin.commit) {
      report(hooks, "done", `${pack.name} is up to date`);
      return { pack, from: origin.commit, to, changed: false };
    }
    // What changed needs only the objects: it is read while the files are checked out and checked.
    // One git process; the files are the whole repository's (a plugin may import a file outside
    // the subpath), the commits those touching the subpath.
    const history = changesBetween(staging.pack, origin.commit, to, origin.subpath, ctx.env);
    const checked = (async () => {
      await checkoutCommit(staging.pack, to, await currentBranch(staging.pack), ctx.env);
      markCheckedOut(staging.pack);
      await excludeIslands(staging.pack);
      checkAborted(hooks, `updating ${pack.name}`);
      report(hooks, "validating", `Checking the plugins of ${pack.name}`);
      return validateStaged({
        root: staging.pack,
        subpath: origin.subpath,
        label: pack.name,
        where: source.url,
        scope: pack.scope,
        warn: ctx.warn,
      });
    })();
    // Both settle before going on: git must be done with the staging folder before it is removed.
    const [validated, read] = await Promise.allSettled([checked, history]);
    if (validated.status === "rejected") throw validated.reason;
    if (read.status === "rejected") throw read.reason;
    const staged = validated.value;
    const { commits, files: changed } = read.value;
    // What the user granted before is read while the plugins are vendored and built.
    const freshRead = notGrantedYet(ctx.grants, pack.dir, staged.plugins);
    freshRead.catch(() => undefined); // awaited below; a failure before then is not unhandled
    const names = staged.plugins.map((p) => p.name);
    if (names.some((n) => !pack.plugins.includes(n)))
      checkClashes(await packs(), pack.name, names, pack.dir);
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
    const only = pluginsToBuild(
      staged,
      changed.map((f) => f.path),
      vendor !== origin.vendored,
    );
    const count = only?.size ?? staged.plugins.length;
    report(hooks, "building", `Building ${count} changed plugin${count === 1 ? "" : "s"}`);
    await buildCheck(staged, pack.name, only);

    report(hooks, "consent", `Asking to update ${pack.name}`);
    const fresh = await freshRead;
    const question = updateQuestion({
      pack: pack.name,
      source: source.url,
      from: origin.commit,
      to,
      commits,
      files: changed.filter((f) => inSubpath(f.path, origin.subpath)),
      plugins: staged.plugins,
      fresh,
      removed: pack.plugins.filter((n) => !names.includes(n)),
    });
    if (!(await hooks.consent(question)))
      throw new PackError(
        `${pack.name} was not updated: the update was not accepted (the installed version stays)`,
      );
    checkAborted(hooks, `updating ${pack.name}`);

    const newOrigin = {
      ...origin,
      commit: to,
      updatedAt: new Date().toISOString(),
      vendored: vendor,
    };
    await writeOrigin(staging.pack, newOrigin);
    report(hooks, "installing", `Replacing ${pack.name}`);
    const { oldCopyRemoved } = await swapInto(staging.pack, pack.dir, pluginsDir);
    // Only what the question showed as new needs recording; the rest was granted already.
    // A plugin the update dropped leaves no grants behind for whatever is put in its folder later.
    const asked = staged.plugins.filter((p) => (fresh.get(p.name)?.length ?? 0) > 0);
    await Promise.all([
      oldCopyRemoved,
      Promise.all([
        recordGrants(ctx.grants, pack.dir, asked),
        forgetDropped(ctx.grants, pack.dir, staged.plugins),
      ]).catch((err: unknown) =>
        ctx.warn(
          `${pack.name}: could not record the permissions you accepted (${(err as Error).message}); they will be asked for at load`,
        ),
      ),
    ]);
    report(hooks, "done", `Updated ${pack.name}`);
    return {
      pack: { ...pack, origin: newOrigin, plugins: names },
      from: origin.commit,
      to,
      changed: true,
    };
  } catch (err) {
    throw asPackError(err, `updating ${pack.name}`);
  } finally {
    await staging.dispose();
  }
}
