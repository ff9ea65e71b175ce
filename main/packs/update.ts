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
  grantsNotRecorded,
  installedDir,
  notGrantedYet,
  recordConsentedTrust,
  recordGrants,
  updateQuestion,
} from "./consent.ts";
import { trustBeforeConsent } from "../trust/install-trust.ts";
import { asPackError, checkAborted, gitContext, report, type PackContext } from "./context.ts";
import { fetchUpdate } from "./git.ts";
import { changedRuns, withChangedRuns } from "./run-changes.ts";
import { startChanges, type Changes, type StartedChanges } from "./git-history.ts";
import { changedPaths as changedInIndex, readIndexEntries } from "./git-index.ts";
import {
  checkoutCommit,
  copyCheckedOut,
  copyInstalled,
  currentBranch,
  excludeIslands,
  headCommit,
  localState,
} from "./git-local.ts";
import { checkClashes, findPack, type FoundPack } from "./installed.ts";
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
  pack: { name: string; dir: string },
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

const listed = async (pack: FoundPack): Promise<InstalledPack> => ({
  ...pack,
  plugins: await pack.plugins,
});

/**
 * The times of the plugins updates added, after this one: what it added counts from `now`, and a
 * plugin it took away is forgotten (were it to come back, it would count from then).
 */
function addedTimes(
  before: Record<string, string> | undefined,
  names: string[],
  added: string[],
  now: string,
): Record<string, string> {
  return Object.fromEntries([
    ...Object.entries(before ?? {}).filter(([n]) => names.includes(n) && !added.includes(n)),
    ...added.map((n) => [n, now]),
  ]);
}

const inSubpath = (file: string, subpath: string | undefined) =>
  !subpath || file === subpath || file.startsWith(`${subpath}/`);

/**
 * Updates `pack` (whose plugins may still be being listed); `packs()` lists everything installed
 * (read only if the update adds plugins).
 */
export async function updateResolved(
  ctx: PackContext,
  pack: FoundPack,
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
    return { pack: await listed(pack), from: origin.commit, to: origin.commit, changed: false };

  const pluginsDir = path.dirname(pack.dir);
  const staging = await createStaging(pluginsDir, pack.name);
  let changes: StartedChanges | undefined;
  let history: Promise<Changes> | undefined;
  try {
    // The installed copy's .git now, and its checked-out files while git fetches, so that the
    // checkout writes only what changed; not the files when the update is forced over local
    // edits (an edited copy is refused otherwise, and a forced one keeps none of them).
    const withFiles = !hooks.force;
    copyInstalled(pack.dir, staging.pack, withFiles);
    report(hooks, "fetching", `Fetching ${source.url}`);
    const git = gitContext(ctx, hooks, "fetching");
    const fetching = fetchUpdate(staging.pack, source, origin.ref, origin.commit, git);
    fetching.catch(() => undefined); // awaited below
    // What changed, for the question, is read by one git process (see git-history.ts), started
    // while the fetch waits on the network and told the range once it is known. It starts after
    // the fetch's git (a spawn holds this thread up; the fetch's is queued a few ticks on).
    await new Promise((resolve) => setImmediate(resolve));
    changes = startChanges(staging.pack, origin.subpath, ctx.env);
    // The edit check runs beside the fetch and the copy (it only reads the installed copy). All
    // are waited for (git must be done with the staging folder before it is removed); edits are
    // reported first.
    const [edits, fetched, copied] = await Promise.allSettled([
      withFiles ? refuseLocalEdits(ctx, pack, origin.commit) : undefined,
      fetching,
      withFiles ? copyCheckedOut(pack.dir, staging.pack) : undefined,
    ]);
    if (edits.status === "rejected") throw edits.reason;
    if (fetched.status === "rejected") throw fetched.reason;
    if (copied.status === "rejected") throw copied.reason;
    const to = fetched.value;
    if (to === origin.commit) {
      report(hooks, "done", `${pack.name} is up to date`);
      return { pack: await listed(pack), from: origin.commit, to, changed: false };
    }
    history = changes.read(origin.commit, to);
    history.catch(() => undefined); // awaited below; a failure before then is not unhandled
    // What to build is told by the index before and after the checkout when it can be read
    // here (not waiting for the history); otherwise by the history's files.
    const gitDir = path.join(staging.pack, ".git");
    const indexBefore = readIndexEntries(gitDir);
    await checkoutCommit(staging.pack, to, await currentBranch(staging.pack), ctx.env, withFiles);
    markCheckedOut(staging.pack);
    const indexAfter = indexBefore && readIndexEntries(gitDir);
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
      ...(origin.claudeEntry
        ? {
            claudeEntry: {
              file: `${origin.listedBy ?? source.url} .claude-plugin/marketplace.json`,
              entry: origin.claudeEntry,
            },
          }
        : {}),
    });
    // What the user granted before is read while the plugins are vendored and built.
    const freshRead = notGrantedYet(ctx.grants, pack.dir, staged.plugins);
    freshRead.catch(() => undefined); // awaited below; a failure before then is not unhandled
    const names = staged.plugins.map((p) => p.name);
    const installedNames = await pack.plugins;
    const added = names.filter((n) => !installedNames.includes(n));
    const sameNamed =
      added.length > 0
        ? checkClashes(await packs(), pack.name, staged.plugins, {
            overlap: !origin.claudeEntry,
            except: pack.dir,
          }).flatMap((s) => {
            // Only what this update brings: a copy it had already kept its place.
            const plugins = s.plugins.filter((n) => added.includes(n));
            return plugins.length > 0 ? [{ pack: s.pack, plugins }] : [];
          })
        : [];
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
          warn: ctx.warn,
        },
      );
      if (vendored > 0) await checkSymlinks(staging.pack, pack.name);
    }
    checkAborted(hooks, `updating ${pack.name}`);
    const changedPaths =
      indexBefore && indexAfter
        ? changedInIndex(indexBefore, indexAfter)
        : (await history).files.map((f) => f.path);
    // Approved commands whose files changed are asked about again, like new ones.
    const rerun = changedRuns(staged.plugins, changedPaths);
    rerun.catch(() => undefined); // awaited below
    const only = pluginsToBuild(staged, changedPaths, vendor !== origin.vendored);
    const count = only?.size ?? staged.plugins.length;
    report(hooks, "building", `Building ${count} changed plugin${count === 1 ? "" : "s"}`);
    await buildCheck(staged, pack.name, only);

    report(hooks, "consent", `Asking to update ${pack.name}`);
    const fresh = withChangedRuns(await freshRead, await rerun);
    const { commits, files: changed } = await history;
    const question = updateQuestion({
      pack: pack.name,
      source: source.url,
      from: origin.commit,
      to,
      commits,
      files: changed.filter((f) => inSubpath(f.path, origin.subpath)),
      plugins: staged.plugins,
      fresh,
      added,
      removed: installedNames.filter((n) => !names.includes(n)),
      sameNamed,
    });
    // What the folder's trust was while the person read the question (what it covers).
    const trust =
      pack.scope === "project" ? await trustBeforeConsent(ctx.homes, ctx.warn) : undefined;
    if (!(await hooks.consent(question)))
      throw new PackError(
        `${pack.name} was not updated: the update was not accepted (the installed version stays)`,
      );
    checkAborted(hooks, `updating ${pack.name}`);

    const now = new Date().toISOString();
    const newOrigin = {
      ...origin,
      commit: to,
      updatedAt: now,
      vendored: vendor,
      addedAt: addedTimes(origin.addedAt, names, added, now),
    };
    await writeOrigin(staging.pack, newOrigin);
    report(hooks, "installing", `Replacing ${pack.name}`);
    const { oldCopyRemoved } = await swapInto(staging.pack, pack.dir, pluginsDir);
    // Only what the question showed as new needs recording; the rest was granted already.
    // A plugin the update dropped leaves no grants behind for whatever is put in its folder later.
    const asked = staged.plugins.filter((p) => (fresh.get(p.name)?.length ?? 0) > 0);
    // The new version serves from here; the old copy, out of the loader's sight, is deleted after.
    ctx.tidy(oldCopyRemoved);
    await Promise.all([
      recordGrants(ctx.grants, pack.dir, asked),
      forgetDropped(ctx.grants, pack.dir, staged.plugins),
    ]).catch((err: unknown) => ctx.warn(grantsNotRecorded(pack.name, err)));
    if (trust) await recordConsentedTrust(ctx, hooks, pack.name, trust);
    report(hooks, "done", `Updated ${pack.name}`);
    return {
      pack: { ...pack, origin: newOrigin, plugins: names },
      from: origin.commit,
      to,
      changed: true,
      ...(sameNamed.length > 0 ? { sameNamed } : {}),
    };
  } catch (err) {
    throw asPackError(err, `updating ${pack.name}`);
  } finally {
    // git must be done with the staging folder before it is removed.
    await (history ? history.catch(() => undefined) : changes?.stop());
    await staging.dispose();
  }
}
