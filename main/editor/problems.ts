/**
 * A plugin's problems as the editor marks them: why it failed to load or reload (each bundle
 * error at its file, line and column), the last runtime fault; files relative to the plugin
 * folder so the editor can put each marker in the file and at the line it names.
 */
import path from "node:path";
import type { Problem } from "../host/problem.ts";
import { isInside } from "../code-plugins/capabilities/files.ts";

/** A failed load's problems, as the editor shows them. */
export function loadProblems(problems: readonly Problem[], plugin: string, dir: string): Problem[] {
  return problems.map((problem) => relativeTo(problem, plugin, dir));
}

/** A runtime fault: where the plugin's stack says it happened, when it names a plugin file. */
export function faultProblem(
  fault: { call: string; message: string },
  plugin: string,
  dir: string,
  entry: string,
): Problem {
  const at = /\(?((?:[A-Za-z]:)?[^\s():]+\.[cm]?[jt]sx?):(\d+):(\d+)\)?/.exec(fault.message);
  const file = at && path.isAbsolute(at[1]) ? at[1] : entry;
  const problem: Problem = {
    source: plugin,
    file,
    title: `${fault.call} ${fault.message.split("\n")[0]}`,
  };
  if (at) Object.assign(problem, { line: Number(at[2]), column: Number(at[3]) });
  return relativeTo(problem, plugin, dir);
}

function relativeTo(problem: Problem, plugin: string, dir: string): Problem {
  // Paths inside the plugin read as the editor's file tree shows them.
  const out: Problem = {
    ...problem,
    source: plugin,
    title: problem.title.replaceAll(`${dir}/`, ""),
  };
  if (out.file && path.isAbsolute(out.file) && isInside(out.file, dir))
    out.file = path.relative(dir, out.file).split(path.sep).join("/");
  return out;
}
