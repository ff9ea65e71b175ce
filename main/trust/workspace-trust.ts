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
import { TrustStore } from "./store.ts";
import type { Problem, ProblemSink } from "../host/problem.ts";

export interface WorkspaceTrust {
  trusted: boolean;
  /** One line on why (shown by `islet trust list` and the app). */
  why: string;
  /** What an untrusted folder's `.islet/` would have widened. */
  heldBack: string[];
  /** Trusted by `--yes` for this run only (no record): a later recorded "no" still narrows it. */
  onlyThisRun?: boolean;
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
  if (record?.decision === "trusted")
    return {
      trusted: true,
      why: `trusted ${record.at.slice(0, 10)} (${record.folder})`,
      heldBack: [],
    };
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
    await store.record(homes.workdir, "trusted");
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
 * The folder's trust as recorded now, from `current` (a running engine's): a trusted record
 * trusts it; without one a folder trusted by record is no longer trusted, and a `--yes` run stays
 * trusted unless the folder is now recorded "untrusted". Never asks.
 */
export async function recordedTrust(
  homes: Homes,
  current: WorkspaceTrust,
  warn: ProblemSink,
): Promise<WorkspaceTrust> {
  if (homes.project === homes.global) return current;
  const record = await new TrustStore(homes.global, warn).lookup(homes.workdir);
  if (record?.decision === "trusted")
    return current.trusted && !current.onlyThisRun
      ? current
      : {
          trusted: true,
          why: `trusted ${record.at.slice(0, 10)} (${record.folder})`,
          heldBack: [],
        };
  if (!current.trusted || (current.onlyThisRun && record?.decision !== "untrusted")) return current;
  return {
    trusted: false,
    why: record ? "you chose not to trust it" : "not trusted",
    heldBack: await projectWidening(homes),
  };
}
