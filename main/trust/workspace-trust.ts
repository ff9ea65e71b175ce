/**
 * Workspace trust (SPEC §6, as in VS Code and Claude Code): a project's own `.islet/` widens
 * nothing — unsafe mode, exec, permission grants, its providers, shell hooks, MCP servers,
 * runners — until the user trusts the folder. Asked once per folder (only when there is something
 * to widen), recorded in the global home; `--yes` trusts for one run. Untrusted, sandboxed
 * plugins with default rights still load, and one line says what was held back.
 */
import { ask, type QuestionPort } from "../host/questions.ts";
import type { Homes } from "../config/homes.ts";
import { projectWidening } from "./held-back.ts";
import { TrustStore, type TrustRecord } from "./store.ts";
import { runnableSurface, surfaceChanges } from "./surface.ts";
import type { Problem, ProblemSink } from "../host/problem.ts";

export interface WorkspaceTrust {
  trusted: boolean;
  /** One line on why (shown by `islet trust list` and the app). */
  why: string;
  /** What an untrusted folder's `.islet/` would have widened. */
  heldBack: string[];
  /** Trusted by `--yes` for this run only (no record): a later recorded "no" still narrows it. */
  onlyThisRun?: boolean;
  /** Trusted by record, held back because what runs from it changed since: the changes. */
  changes?: string[];
}

export async function resolveWorkspaceTrust(opts: {
  homes: Homes;
  questions?: QuestionPort;
  warn(problem: Problem): void;
}): Promise<WorkspaceTrust> {
  const { homes } = opts;
  if (homes.project === homes.global)
    return { trusted: true, why: "the workspace's .islet/ is the global home", heldBack: [] };
  const store = new TrustStore(homes.global, opts.warn);
  const record = await store.lookup(homes.workdir);
  if (record?.decision === "trusted") return confirmSurface(opts, store, record);
  const heldBack = await projectWidening(homes);
  if (heldBack.length === 0)
    return { trusted: false, why: "not trusted (its .islet/ asks for nothing more)", heldBack };
  const notice = (why: string) =>
    opts.warn({
      source: "trust",
      file: homes.workdir,
      title: `${homes.workdir} is not trusted`,
      cause: why,
      suggestion:
        `held back: ${heldBack.join("; ")}. ` + "Trust it with `islet trust add` to use them.",
    });
  if (record?.decision === "untrusted") {
    notice(`you chose not to trust it on ${record.at.slice(0, 10)}`);
    return { trusted: false, why: "you chose not to trust it", heldBack };
  }
  const { answer, answered } = await ask(opts.questions, {
    kind: "workspace-trust",
    folder: homes.workdir,
    heldBack,
  });
  if (answer === "trust") {
    // What runs now was what the question was about (it read the same files).
    await store.record(homes.workdir, "trusted", await runnableSurface(homes));
    return { trusted: true, why: "trusted just now", heldBack: [] };
  }
  if (answer === "once")
    return { trusted: true, why: "trusted for this run (--yes)", heldBack: [], onlyThisRun: true };
  // Only a person's "no" is remembered; with nobody to ask, the next run asks again.
  if (answered) await store.record(homes.workdir, "untrusted");
  notice(answered ? "you said no" : "nobody to ask: run at a terminal, or pass --yes for this run");
  return { trusted: false, why: "not trusted", heldBack };
}

/**
 * A trusted folder: what runs from it is compared with what ran when it was trusted. A change
 * (a hook added, an MCP command or a script it runs edited) is asked about like the first trust
 * question, the changes listed; until someone confirms, the folder's parts are held back for this
 * run, with one line saying so. A record from before surfaces were kept takes what runs now.
 */
async function confirmSurface(
  opts: { homes: Homes; questions?: QuestionPort; warn(problem: Problem): void },
  store: TrustStore,
  record: TrustRecord,
): Promise<WorkspaceTrust> {
  const { homes } = opts;
  const trusted = {
    trusted: true,
    why: `trusted ${record.at.slice(0, 10)} (${record.folder})`,
    heldBack: [],
  };
  const [before, now] = await Promise.all([store.surface(homes.workdir), runnableSurface(homes)]);
  if (!before) {
    await store.recordSurface(homes.workdir, now);
    return trusted;
  }
  const changes = surfaceChanges(before, now);
  if (changes.length === 0) return trusted;
  const { answer, answered } = await ask(opts.questions, {
    kind: "workspace-trust",
    folder: homes.workdir,
    heldBack: changes,
  });
  if (answer === "trust") {
    await store.recordSurface(homes.workdir, now);
    return { ...trusted, why: "trusted; its changes confirmed just now" };
  }
  if (answer === "once")
    return { trusted: true, why: "trusted for this run (--yes)", heldBack: [], onlyThisRun: true };
  heldBackNotice(homes, changes, opts.warn, answered);
  return { trusted: false, why: "changed since you trusted it", heldBack: changes, changes };
}

/** The one line saying what changed, that it is held back, and what to do. */
function heldBackNotice(homes: Homes, changes: string[], warn: ProblemSink, answered = false) {
  warn({
    source: "trust",
    file: homes.workdir,
    title: `what runs from ${homes.workdir} changed since you trusted it`,
    cause: changes.join("; "),
    suggestion: answered
      ? "its project parts are held back for this run; `islet trust add` trusts it as it is now"
      : "its project parts are held back: run at a terminal to confirm the changes, pass --yes for this run, or `islet trust add` to trust it as it is now",
  });
}

/**
 * The folder's trust as recorded now, from `current` (a running engine's): a trusted record
 * trusts it unless what runs from it changed since (then its parts are held back, one line says
 * so); without one a folder trusted by record is no longer trusted, and a `--yes` run stays
 * trusted unless the folder is now recorded "untrusted". Never asks.
 */
export async function recordedTrust(
  homes: Homes,
  current: WorkspaceTrust,
  warn: ProblemSink,
): Promise<WorkspaceTrust> {
  if (homes.project === homes.global) return current;
  const store = new TrustStore(homes.global, warn);
  const record = await store.lookup(homes.workdir);
  if (record?.decision === "trusted") {
    // What runs from it may have changed since it was trusted (a pull while the app runs); a
    // `--yes` run is trusted for the run whatever changed.
    const before = await store.surface(homes.workdir);
    const changes = before ? surfaceChanges(before, await runnableSurface(homes)) : [];
    if (changes.length > 0) {
      if (current.onlyThisRun) return current;
      if (current.trusted) heldBackNotice(homes, changes, warn);
      return { trusted: false, why: "changed since you trusted it", heldBack: changes, changes };
    }
    if (current.trusted && !current.onlyThisRun) return current;
    return {
      trusted: true,
      why: `trusted ${record.at.slice(0, 10)} (${record.folder})`,
      heldBack: [],
    };
  }
  if (!current.trusted || (current.onlyThisRun && record?.decision !== "untrusted")) return current;
  return {
    trusted: false,
    why: record ? "you chose not to trust it" : "not trusted",
    heldBack: await projectWidening(homes),
  };
}
