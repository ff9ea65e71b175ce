/**
 * Plugin packs (SPEC §7, seed 000 "Install from git", "Update", "Remove"): the one entry point
 * the CLI and the bridge use. Operations that change the plugins dirs run one at a time per
 * manager, so two clicks in the app never swap the same pack twice at once, and one at a time
 * across processes (lock.ts), so a CLI and the app never do either.
 */
import type { Homes } from "../config/homes.ts";
import { GrantStore } from "../code-plugins/consent/grants.ts";
import { addPack } from "./add.ts";
import { asPackError, type PackContext } from "./context.ts";
import { asFound, listPacks } from "./installed.ts";
import { acquirePackLock } from "./lock.ts";
import { hasOrigin } from "./origin.ts";
import { removePack } from "./remove.ts";
import type {
  AddedPack,
  InstalledPack,
  PackAddInput,
  PackOperationHooks,
  PackUpdateOutcome,
} from "./types.ts";
import { updatePack, updateResolved } from "./update.ts";
import type { Problem } from "../host/problem.ts";

export * from "./types.ts";

export interface PackManager {
  /** Every pack in both homes' plugins dirs, global first. */
  list(): Promise<InstalledPack[]>;
  add(input: PackAddInput, hooks: PackOperationHooks): Promise<AddedPack>;
  /** A pack, by its name or one of its plugins'. */
  update(nameOrPlugin: string, hooks: PackOperationHooks): Promise<PackUpdateOutcome>;
  /** Every pack installed from git; a failure is reported for that pack and the rest go on. */
  updateAll(
    hooks: PackOperationHooks,
  ): Promise<Array<PackUpdateOutcome | { name: string; error: string }>>;
  remove(nameOrPlugin: string): Promise<InstalledPack>;
  /** Resolves once every operation asked for so far is done, tidying included. */
  settled(): Promise<void>;
}

export function packManager(opts: {
  homes: Homes;
  /** Tokens, SSH_AUTH_SOCK, HOME, PATH (for git and npm). Default: process.env. */
  env?: NodeJS.ProcessEnv;
  warn?(problem: Problem): void;
  /** How long an operation waits for another process's to finish (default 10 s). */
  lockWaitMs?: number;
}): PackManager {
  const warn = opts.warn ?? (() => undefined);
  const shared = {
    homes: opts.homes,
    env: opts.env ?? process.env,
    warn,
    grants: new GrantStore(opts.homes.global, warn),
  };
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(what: string, op: (ctx: PackContext) => Promise<T>): Promise<T> => {
    const tidying: Promise<unknown>[] = [];
    let tidied: Promise<unknown> = Promise.resolve();
    const next = queue.then(async () => {
      try {
        const lock = await acquirePackLock(opts.homes.global, what, opts.lockWaitMs ?? 10_000);
        try {
          return await op({ ...shared, tidy: (work) => void tidying.push(work) });
        } finally {
          // The caller has its answer at once; the lock is held until the tidying is done.
          tidied = Promise.allSettled(tidying)
            .then(() => lock.release())
            .catch((err: unknown) => warn({ source: what, title: (err as Error).message }));
        }
      } catch (err) {
        throw asPackError(err, what);
      }
    });
    queue = next.then(
      () => tidied,
      () => tidied,
    );
    return next;
  };

  return {
    list: () => listPacks(shared.homes, warn),
    add: (input, hooks) =>
      serial(`installing ${input.source}`, (ctx) => addPack(ctx, input, hooks)),
    update: (name, hooks) => serial(`updating ${name}`, (ctx) => updatePack(ctx, name, hooks)),
    updateAll: (hooks) =>
      serial("updating every pack", async (ctx) => {
        const out: Array<PackUpdateOutcome | { name: string; error: string }> = [];
        const packs = await listPacks(ctx.homes, warn);
        for (const pack of packs) {
          if (!(await hasOrigin(pack.dir))) continue;
          try {
            out.push(await updateResolved(ctx, asFound(pack), async () => packs, hooks));
          } catch (err) {
            out.push({ name: pack.name, error: asPackError(err, `updating ${pack.name}`).message });
          }
        }
        return out;
      }),
    remove: (name) => serial(`removing ${name}`, (ctx) => removePack(ctx, name)),
    settled: () => queue.then(() => undefined),
  };
}
