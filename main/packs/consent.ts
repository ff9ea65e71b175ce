/**
 * Consent for packs (SPEC §6): the install question lists every plugin with all it asks for; the
 * update question lists the commits and files that changed and, per plugin, only what was not
 * granted before (compared with the grant store, by the plugin's installed folder). Accepting
 * records grants for what was shown, under the final folder, so loading does not ask again.
 */
import path from "node:path";
import type {
  PackInstallQuestion,
  PackPluginSummary,
  PackUpdateQuestion,
  PermissionItem,
} from "../host/questions.ts";
import { GrantStore, grantKey } from "../code-plugins/consent/grants.ts";
import { itemKey, requestHash } from "../code-plugins/consent/requests.ts";
import type { CommitSummary, FileChange } from "./git-local.ts";
import type { PackOperationHooks, PackScope, SameNamed } from "./types.ts";
import type { Problem } from "../host/problem.ts";
import type { StagedPlugin } from "./validate.ts";
import type { RemoteEntry } from "../code-plugins/loader/claude-marketplace.ts";
import { remoteOffer } from "./remote-entry.ts";
import { report, type PackContext } from "./context.ts";
import { trustConsented, type TrustBeforeConsent } from "../trust/install-trust.ts";

function summary(p: StagedPlugin, permissions: PermissionItem[]): PackPluginSummary {
  return { name: p.name, description: p.description, format: p.format, permissions };
}

const sameNamedOf = (sameNamed: SameNamed[] | undefined) =>
  sameNamed?.length
    ? { sameNamed: sameNamed.map((s) => ({ pack: s.pack, plugins: [...s.plugins] })) }
    : {};

export function installQuestion(opts: {
  pack: string;
  source: string;
  ref?: string;
  subpath?: string;
  commit?: string;
  scope: PackScope;
  plugins: StagedPlugin[];
  remote?: RemoteEntry[];
  via?: "link";
  listedBy?: string;
  sameNamed?: SameNamed[];
}): PackInstallQuestion {
  return {
    kind: "pack-install",
    pack: opts.pack,
    source: opts.source,
    ...(opts.ref ? { ref: opts.ref } : {}),
    ...(opts.subpath ? { subpath: opts.subpath } : {}),
    ...(opts.via ? { via: opts.via } : {}),
    ...(opts.commit ? { commit: opts.commit } : {}),
    scope: opts.scope,
    plugins: opts.plugins.map((p) => summary(p, p.items)),
    ...(opts.listedBy ? { listedBy: opts.listedBy } : {}),
    ...sameNamedOf(opts.sameNamed),
    ...(opts.remote?.length
      ? {
          remote: opts.remote.map(remoteOffer),
        }
      : {}),
  };
}

/** The folder a staged plugin will have once installed at `packDir`. */
export function installedDir(packDir: string, p: StagedPlugin): string {
  return p.rel ? path.join(packDir, ...p.rel.split("/")) : packDir;
}

/** Per plugin, what it asks for that its installed folder was not granted. */
export async function notGrantedYet(
  store: GrantStore,
  packDir: string,
  plugins: StagedPlugin[],
): Promise<Map<string, PermissionItem[]>> {
  const recorded = await store.all();
  const out = new Map<string, PermissionItem[]>();
  for (const p of plugins) {
    const granted = new Set(recorded[await grantKey(installedDir(packDir, p))]?.granted ?? []);
    out.set(
      p.name,
      p.items.filter((i) => !granted.has(itemKey(i))),
    );
  }
  return out;
}

export function updateQuestion(opts: {
  pack: string;
  source: string;
  from: string;
  to: string;
  commits: CommitSummary[];
  files: FileChange[];
  plugins: StagedPlugin[];
  fresh: Map<string, PermissionItem[]>;
  added: string[];
  removed: string[];
  sameNamed: SameNamed[];
}): PackUpdateQuestion {
  return {
    kind: "pack-update",
    pack: opts.pack,
    source: opts.source,
    from: opts.from,
    to: opts.to,
    commits: opts.commits,
    files: opts.files,
    plugins: opts.plugins.map((p) => summary(p, opts.fresh.get(p.name) ?? [])),
    added: opts.added,
    removed: opts.removed,
    ...sameNamedOf(opts.sameNamed),
  };
}

/**
 * Records, for each plugin now installed under `packDir`, that what it asks for was granted. For
 * Claude Code plugins that is what they run (hooks, MCP servers): the load-time gate does not
 * check them, but a later update compares with it, so it asks only about new commands.
 */
export async function recordGrants(
  store: GrantStore,
  packDir: string,
  plugins: StagedPlugin[],
): Promise<void> {
  const entries = [];
  for (const p of plugins) {
    if (p.items.length === 0) continue;
    entries.push({
      key: await grantKey(installedDir(packDir, p)),
      name: p.name,
      hash: requestHash(p.items),
      granted: p.items.map(itemKey),
    });
  }
  await store.recordMany(entries);
}

/** Installed, but the grants could not be recorded: its plugins will ask again when they load. */
export function grantsNotRecorded(pack: string, err: unknown): Problem {
  return {
    source: pack,
    title: "could not record the permissions you accepted",
    cause: (err as Error).message,
    suggestion: "they will be asked for at load",
  };
}

/**
 * The folder's trust after a consented install or update into a workspace
 * (trust/install-trust.ts): a folder trusted by it is said as progress, what it could not cover
 * as one problem. Failing to record only means the next start asks.
 */
export async function recordConsentedTrust(
  ctx: PackContext,
  hooks: PackOperationHooks,
  pack: string,
  before: TrustBeforeConsent,
): Promise<void> {
  const { trusted, waiting } = await trustConsented(ctx.homes, pack, before, ctx.warn).catch(
    (err: unknown): { trusted?: string; waiting?: Problem } => ({
      waiting: {
        source: "trust",
        title: `could not record that ${pack}'s parts are trusted: ${(err as Error).message}`,
        suggestion: "the next start asks about them",
      },
    }),
  );
  if (trusted) report(hooks, "installing", trusted);
  if (waiting) ctx.warn(waiting);
}

/** Forgets the grants of folders under `packDir` that no plugin of `plugins` is installed in. */
export async function forgetDropped(
  store: GrantStore,
  packDir: string,
  plugins: StagedPlugin[],
): Promise<void> {
  const keep = await Promise.all(plugins.map((p) => grantKey(installedDir(packDir, p))));
  await store.forgetUnder(await grantKey(packDir), keep);
}
