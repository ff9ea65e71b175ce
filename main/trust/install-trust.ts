/**
 * A pack installed (or updated) in a workspace with the person's consent: the question listed
 * everything the pack can run, so its parts are not asked about a second time at the next start.
 * Only what the consent covered is trusted:
 * - a trusted folder whose runnable surface was as confirmed before the install gets the pack's
 *   parts added to what it covers (a change that came before the install is still asked about);
 * - a folder never asked about, where nothing else would have been held back, is trusted for
 *   what runs from it now: the pack's parts and nothing more;
 * - a folder with other parts held back, or one the person chose not to trust, stays as it is,
 *   and one line says the pack's hooks and servers wait for `islet trust add`.
 * Recorded in the global home (store.ts): a consent written inside the workspace could be planted
 * by the repository it came with.
 */
import type { Homes } from "../config/homes.ts";
import type { Problem, ProblemSink } from "../host/problem.ts";
import { projectWidening } from "./held-back.ts";
import { TrustStore } from "./store.ts";
import { runnableSurface, surfaceChanges } from "./surface.ts";

/** The folder's trust as it was before the pack moved in (read at the question). */
export type TrustBeforeConsent =
  | { kind: "global" }
  | { kind: "trusted"; unchanged: boolean }
  | { kind: "refused" }
  | { kind: "unasked"; heldBack: string[] };

export async function trustBeforeConsent(
  homes: Homes,
  warn: ProblemSink,
): Promise<TrustBeforeConsent> {
  if (homes.project === homes.global) return { kind: "global" };
  const store = new TrustStore(homes.global, warn);
  const record = await store.lookup(homes.workdir);
  if (record?.decision === "trusted") {
    const [recorded, now] = await Promise.all([
      store.surface(homes.workdir),
      runnableSurface(homes),
    ]);
    return { kind: "trusted", unchanged: !recorded || surfaceChanges(recorded, now).length === 0 };
  }
  if (record?.decision === "untrusted") return { kind: "refused" };
  return { kind: "unasked", heldBack: await projectWidening(homes) };
}

/**
 * Records what the consent covered, once the pack is in place: `trusted` says a folder trusted
 * by it, `waiting` what it could not cover (the pack's parts stay held back until the folder is
 * trusted).
 */
export async function trustConsented(
  homes: Homes,
  pack: string,
  before: TrustBeforeConsent,
  warn: ProblemSink,
): Promise<{ trusted?: string; waiting?: Problem }> {
  if (before.kind === "global") return {};
  const store = new TrustStore(homes.global, warn);
  if (before.kind === "trusted") {
    if (!before.unchanged)
      return {
        waiting: heldBack(homes, pack, "what runs from it had changed before this too"),
      };
    await store.recordSurface(homes.workdir, await runnableSurface(homes));
    return {};
  }
  if (before.kind === "refused")
    return { waiting: heldBack(homes, pack, "you chose not to trust it") };
  if (before.heldBack.length > 0)
    return {
      waiting: heldBack(
        homes,
        pack,
        `trusting it would also let run: ${before.heldBack.join("; ")}`,
      ),
    };
  await store.record(homes.workdir, "trusted", await runnableSurface(homes));
  return {
    trusted: `Trusted ${homes.workdir} for what runs from it now: ${pack}, nothing else (\`islet trust list\` shows it)`,
  };
}

function heldBack(homes: Homes, pack: string, why: string): Problem {
  return {
    source: "trust",
    file: homes.workdir,
    title: `${pack}'s hooks, MCP servers and wider permissions wait until you trust ${homes.workdir}`,
    cause: why,
    suggestion: "`islet trust add` trusts the folder as it is now",
  };
}
