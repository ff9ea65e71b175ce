/** Pure helpers that turn the runtime's plugin report into words for people. */
import type {
  PluginEntry,
  PluginList,
  Problem,
  ReloadResult,
} from "../../../main/bridge/contract.ts";
import { hookPhases } from "../../../main/core/hook-timings.ts";
import { formatProblem, problemText } from "../../../main/host/problem.ts";

export const STATUS_LABEL: Record<PluginEntry["status"], string> = {
  active: "Active",
  disabled: "Disabled",
  failed: "Failed",
  errored: "Errored",
};

export const STATUS_HINT: Record<PluginEntry["status"], string> = {
  active: "Loaded and running",
  disabled: "Turned off (disabled: true in plugin.yaml, or excluded in features/plugins.yaml)",
  failed: "Did not load: fix the error below and save, the plugin reloads by itself",
  errored: "Stopped after faulting repeatedly: fix it and save, or reload",
};

/** Hook timings in the order they happen around a turn, with a heading per phase. */
const HOOK_PHASES: { label: string; hooks: string[] }[] = hookPhases();

export function hooksByPhase(hooks: readonly string[]): { label: string; hooks: string[] }[] {
  const known = new Set(HOOK_PHASES.flatMap((p) => p.hooks));
  const groups = HOOK_PHASES.map((p) => ({
    label: p.label,
    hooks: p.hooks.filter((h) => hooks.includes(h)),
  })).filter((g) => g.hooks.length > 0);
  const other = hooks.filter((h) => !known.has(h));
  return other.length > 0 ? [...groups, { label: "Other", hooks: other }] : groups;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const kb = bytes / 1024;
  if (kb < 1024) return `${kb < 10 ? kb.toFixed(1) : Math.round(kb)} KB`;
  const mb = kb / 1024;
  return `${mb < 10 ? mb.toFixed(1) : Math.round(mb)} MB`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** `base/sub/file` → `sub/file`; anything else unchanged. */
export function relativeTo(file: string, base: string | undefined): string {
  if (!base) return file;
  const root = base.replace(/[\\/]+$/, "");
  if (file.length > root.length + 1 && file.startsWith(root) && /[\\/]/.test(file[root.length]))
    return file.slice(root.length + 1);
  return file;
}

/** A problem as a short location (relative to `base`) and the rest of its line. */
export function problemParts(problem: Problem, base?: string): { location: string; text: string } {
  const text = problemText(problem);
  if (problem.file === undefined) return { location: problem.source, text };
  const position =
    problem.line === undefined
      ? ""
      : `:${problem.line}${problem.column === undefined ? "" : `:${problem.column}`}`;
  return { location: relativeTo(problem.file, base) + position, text };
}

export interface ReloadSummary {
  headline: string;
  failures: ReloadResult[];
}

export function summarizeReload(reports: readonly ReloadResult[], hot: boolean): ReloadSummary {
  const failures = reports.filter((r) => !r.ok);
  const ok = reports.length - failures.length;
  if (reports.length === 0)
    return {
      headline: hot ? "Plugins changed" : "Reload finished: no plugins to reload",
      failures,
    };
  if (hot && reports.length === 1) {
    const r = reports[0];
    return {
      headline: r.ok
        ? `Hot reload: ${r.name} reloaded in ${Math.round(r.ms)} ms`
        : `Hot reload: ${r.name} did not load`,
      failures,
    };
  }
  const parts = [`${plural(ok, "plugin")} reloaded`];
  if (failures.length > 0) parts.push(`${failures.length} failed`);
  return { headline: `${hot ? "Hot reload" : "Reload finished"}: ${parts.join(", ")}`, failures };
}

/**
 * Load problems that no card already shows: a plugin that failed to load can be reported both
 * as a problem (by file) and on its card (as its error); the card is the better place.
 */
export function looseProblems(list: PluginList): PluginList["problems"] {
  return list.problems.filter((problem) => {
    const whole = formatProblem(problem);
    const file = problem.file ?? "";
    return !list.plugins.some(
      (p) =>
        p.error !== null &&
        (p.error === whole || p.problems.some((q) => formatProblem(q) === whole)) &&
        relativeTo(file, p.dir) !== file,
    );
  });
}
